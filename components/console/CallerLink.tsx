/** The caller's number as a link a dispatcher's phone calls back (`tel:`), or "web call" without one. */
export function CallerLink({ phone, testId, className }: { phone: string | null | undefined; testId: string; className?: string }) {
  if (!phone) return <span className={className} data-testid={testId}>web call</span>;
  return (
    <a className={className} href={`tel:${phone}`} data-testid={testId} title={`Call ${phone} back`}>
      {phone}
    </a>
  );
}
