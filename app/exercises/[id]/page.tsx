import { DebriefView } from "@/components/training/DebriefView";
import { personForPage } from "../../page-gate";

export const dynamic = "force-dynamic";

export default async function ExerciseDebriefPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await personForPage(`/exercises/${encodeURIComponent(id)}`);
  return <DebriefView id={id} />;
}
