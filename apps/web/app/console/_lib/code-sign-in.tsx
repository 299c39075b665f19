'use client';
/**
 * Sign-in with an e-mailed one-time code: the address, then the 6-digit code. Shared by the console's login page
 * and the consent app (/connect, /passport); the caller supplies the two calls.
 */
import { type FormEvent, useState } from 'react';
import { errorMessage } from './trpc';
import { ErrorNote, buttonClass, inputClass, secondaryButtonClass } from './ui';

export function CodeSignInForm({
  sendCode,
  verifyCode,
}: {
  /** Sends a code to the address; resolves to the notice shown above the code field. */
  sendCode: (email: string) => Promise<string>;
  /** Verifies the code; the caller moves on when it resolves. */
  verifyCode: (email: string, code: string) => Promise<unknown>;
}) {
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const send = (e?: FormEvent<HTMLFormElement>) => {
    e?.preventDefault();
    // the address as the field shows it: typed or autofilled before the page was interactive, it never reached the
    // state through onChange, and sending the state alone sent an empty address
    const typed = e ? String(new FormData(e.currentTarget).get('email') ?? '').trim() : email;
    if (typed !== email) setEmail(typed);
    void run(async () => {
      setNotice(await sendCode(typed));
      setCode('');
      setStep('code');
    });
  };
  const verify = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await verifyCode(email, code);
    });
  };

  return step === 'email' ? (
    <form onSubmit={send} className="mt-6 space-y-4">
      <label className="block text-sm font-medium" htmlFor="email">
        E-mail address
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          required
          className={inputClass}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </label>
      <button type="submit" className={buttonClass} disabled={busy}>
        Send sign-in code
      </button>
      <ErrorNote error={error} />
    </form>
  ) : (
    <form onSubmit={verify} className="mt-6 space-y-4">
      {notice && (
        <p role="status" className="rounded border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900">
          {notice} The code is valid for 10 minutes.
        </p>
      )}
      <label className="block text-sm font-medium" htmlFor="code">
        Sign-in code
        <input
          id="code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          className={`${inputClass} tracking-widest`}
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
        />
      </label>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass} disabled={busy}>
          Sign in
        </button>
        <button type="button" className={secondaryButtonClass} onClick={() => send()} disabled={busy}>
          Send a new code
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() => {
            setStep('email');
            setError(null);
          }}
        >
          Use another address
        </button>
      </div>
      <ErrorNote error={error} />
    </form>
  );
}
