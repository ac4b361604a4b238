import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';

export interface Confirmation {
  /** The question, as the dialog's heading: "Revoke key …?". */
  question: string;
  /** What follows from yes. */
  consequence: string;
  /** The button that does it ("Revoke"); Cancel is always beside it. */
  confirmLabel: string;
  /** A destructive action: its button is marked as such. */
  danger?: boolean;
}

type Ask = (confirmation: Confirmation) => Promise<boolean>;

const ConfirmContext = createContext<Ask | null>(null);

interface Pending extends Confirmation {
  answer: (yes: boolean) => void;
}

/**
 * Asks before an action that cannot be taken back, in the page rather than with the browser's own
 * `confirm()`. The dialog is the platform's modal `<dialog>`: it keeps focus inside while open (the
 * page behind is inert), closes on Escape, and gives focus back where it was.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [pending, setPending] = useState<Pending | null>(null);

  const ask = useCallback<Ask>(
    (confirmation) => new Promise((answer) => setPending({ ...confirmation, answer })),
    [],
  );

  useEffect(() => {
    if (!pending || dialog.current?.open) return;
    dialog.current?.showModal();
    // The harmless answer has the focus: Enter alone changes nothing.
    cancel.current?.focus();
  }, [pending]);

  const close = (yes: boolean) => {
    pending?.answer(yes);
    setPending(null);
    dialog.current?.close();
  };

  return (
    <ConfirmContext value={ask}>
      {children}
      <dialog
        ref={dialog}
        role="alertdialog"
        className="confirm"
        aria-labelledby="confirm-question"
        aria-describedby="confirm-consequence"
        onCancel={(event) => {
          event.preventDefault();
          close(false);
        }}
      >
        {pending && (
          <>
            <h2 id="confirm-question">{pending.question}</h2>
            <p id="confirm-consequence">{pending.consequence}</p>
            <div className="actions">
              <button type="button" ref={cancel} onClick={() => close(false)}>
                Cancel
              </button>
              <button
                type="button"
                className={pending.danger ? 'danger' : 'primary'}
                onClick={() => close(true)}
              >
                {pending.confirmLabel}
              </button>
            </div>
          </>
        )}
      </dialog>
    </ConfirmContext>
  );
}

/** `await confirm({...})`: true when the operator chose to go on. */
export function useConfirm(): Ask {
  const ask = useContext(ConfirmContext);
  if (!ask) throw new Error('useConfirm needs a ConfirmProvider');
  return ask;
}
