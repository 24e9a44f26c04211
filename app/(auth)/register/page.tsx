import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { isGoogleConfigured } from "@/lib/auth/google";
import { getServerSession } from "@/lib/auth/server";
import { RegisterForm } from "./register-form";

export const metadata: Metadata = { title: "Create account" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function RegisterPage({ searchParams }: { searchParams: SearchParams }) {
  const { callbackUrl: raw } = await searchParams;
  const callbackUrl = safeCallbackUrl(Array.isArray(raw) ? raw[0] : raw);
  if (await getServerSession()) redirect(callbackUrl);
  return <RegisterForm callbackUrl={callbackUrl} googleEnabled={isGoogleConfigured()} />;
}
