'use client';
/** Sign-in: e-mail address, then the 6-digit code sent to it. */
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { ErrorNote, buttonClass, inputClass, secondaryButtonClass } from '../_lib/ui';

export default function LoginPage() {
  const trpc = useTRPC();
  const router = useRouter();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [notice, setNotice] = useState<string | null>(null);
  const requestCode = useMutation(trpc.auth.requestCode.mutationOptions());
  const verifyCode = useMutation(trpc.auth.verifyCode.mutationOptions());

  const send = (e?: FormEvent) => {
    e?.preventDefault();
    requestCode.mutate(
      { email },
      {
        onSuccess: (r) => {
          setNotice(r.message);
          setCode('');
          setStep('code');
        },
      },
    );
  };
  const verify = (e: FormEvent) => {
    e.preventDefault();
    verifyCode.mutate({ email, code }, { onSuccess: () => router.replace('/console') });
  };

  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-semibold">Sign in to the console</h1>
      {step === 'email' ? (
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
          <button type="submit" className={buttonClass} disabled={requestCode.isPending}>
            Send sign-in code
          </button>
          <ErrorNote error={requestCode.error ? errorMessage(requestCode.error) : null} />
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
            <button type="submit" className={buttonClass} disabled={verifyCode.isPending}>
              Sign in
            </button>
            <button type="button" className={secondaryButtonClass} onClick={() => send()} disabled={requestCode.isPending}>
              Send a new code
            </button>
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => {
                setStep('email');
                verifyCode.reset();
                requestCode.reset();
              }}
            >
              Use another address
            </button>
          </div>
          <ErrorNote error={verifyCode.error ? errorMessage(verifyCode.error) : requestCode.error ? errorMessage(requestCode.error) : null} />
        </form>
      )}
    </main>
  );
}
