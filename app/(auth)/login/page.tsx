import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { safeCallbackUrl, signInErrorMessage } from "@/lib/auth/callback-url";
import { isGoogleConfigured } from "@/lib/auth/google";
import { getServerSession } from "@/lib/auth/server";
import { signInNoticeText } from "@/lib/auth/sign-in-notice";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(first(params.callbackUrl));
  if (await getServerSession()) redirect(callbackUrl);
  return (
    <LoginForm
      callbackUrl={callbackUrl}
      initialError={signInErrorMessage(first(params.error), first(params.code))}
      notice={signInNoticeText(first(params.notice))}
      googleEnabled={isGoogleConfigured()}
    />
  );
}
