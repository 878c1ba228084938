import { DebriefView } from "@/components/DebriefView";

export const dynamic = "force-dynamic";

export default async function ExerciseDebriefPage({ params }: { params: Promise<{ id: string }> }) {
  return <DebriefView id={(await params).id} />;
}
