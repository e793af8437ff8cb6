import { BerthApiError } from "@berth/client";

/** The server's own words for a failure (they are written for operators), with the HTTP status. */
export function errorText(error: unknown): string {
  if (error instanceof BerthApiError) return `${error.message} (HTTP ${error.status})`;
  return error instanceof Error ? error.message : String(error);
}

export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  return (
    <div className="notice notice-error" role="alert">
      {title !== undefined ? <strong>{title}: </strong> : null}
      {errorText(error)}
    </div>
  );
}
