import { humanize, severityOf, SEVERITY_LABEL } from "./call-status";

/**
 * Severity is told by shape and letter as well as colour: critical a triangle with C, high a
 * diamond with H, moderate a circle with M. The markup is shared by the map markers (as an HTML
 * string) and the lists (as React).
 */
const SHAPES = {
  critical: '<path d="M12 2 L23 21 L1 21 Z"/>',
  high: '<path d="M12 1 L23 12 L12 23 L1 12 Z"/>',
  moderate: '<circle cx="12" cy="12" r="10"/>',
} as const;
const LETTER_Y = { critical: 18.5, high: 16.5, moderate: 16.5 } as const;

export function severitySvg(value: string, size: number): string {
  const severity = severityOf(value);
  return (
    `<svg class="sev-shape sev-${severity}" width="${size}" height="${size}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">` +
    `${SHAPES[severity]}<text x="12" y="${LETTER_Y[severity]}" text-anchor="middle">${SEVERITY_LABEL[severity][0]}</text></svg>`
  );
}

export function SeverityBadge({ severity }: { severity: string }) {
  const level = severityOf(severity);
  return (
    <span className={`severity-badge sev-${level}`}>
      <span className="sev-icon" dangerouslySetInnerHTML={{ __html: severitySvg(level, 18) }} />
      {severity === level ? SEVERITY_LABEL[level] : humanize(severity)}
    </span>
  );
}
