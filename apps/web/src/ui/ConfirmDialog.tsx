import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { errorText } from "./ErrorNotice.js";

export interface ConfirmProps {
  /** The question, e.g. "Evacuate node3?". */
  title: string;
  children: ReactNode;
  /** The confirming button's label, e.g. "Evacuate". */
  confirm: string;
  /** Runs on confirmation; the dialog stays open with the error if it fails. */
  onConfirm(): Promise<unknown>;
  onClose(): void;
  /** Destructive actions get a red button. */
  danger?: boolean;
}

/**
 * Every operation that changes the cluster goes through this dialog: a
 * native modal <dialog> (focus moves in and is trapped, Escape cancels,
 * focus returns to the opener), the action's consequences spelled out, and
 * the server's answer shown in place when it refuses.
 */
export function ConfirmDialog({
  title,
  children,
  confirm,
  onConfirm,
  onClose,
  danger = false,
}: ConfirmProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element !== null && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <div className="dialog-body">{children}</div>
      {error !== null ? (
        <p className="notice notice-error" role="alert">
          {errorText(error)}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          className={danger ? "danger" : "primary"}
          onClick={() => void run()}
          disabled={busy}
        >
          {busy ? "Working…" : confirm}
        </button>
      </div>
    </dialog>
  );
}
