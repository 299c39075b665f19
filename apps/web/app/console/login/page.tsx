'use client';
/** Sign-in: e-mail address, then the 6-digit code sent to it. */
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { CodeSignInForm } from '../_lib/code-sign-in';
import { useTRPC } from '../_lib/trpc';

export default function LoginPage() {
  const trpc = useTRPC();
  const router = useRouter();
  const requestCode = useMutation(trpc.auth.requestCode.mutationOptions());
  const verifyCode = useMutation(trpc.auth.verifyCode.mutationOptions());

  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-semibold">Sign in to the console</h1>
      <CodeSignInForm
        sendCode={async (email) => (await requestCode.mutateAsync({ email })).message}
        verifyCode={async (email, code) => {
          await verifyCode.mutateAsync({ email, code });
          router.replace('/console');
        }}
      />
    </main>
  );
}
