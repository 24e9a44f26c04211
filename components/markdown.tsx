"use client";

import { type ComponentProps, memo, useMemo, useRef } from "react";
import ReactMarkdown, { type Components, type ExtraProps } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import { cn } from "@/lib/ui/cn";
import { type DateContext, splitDates } from "@/lib/ui/format";
import { CopyButton } from "./copy-button";

type HastElement = NonNullable<ExtraProps["node"]>;

function languageOf(node: HastElement | undefined): string | null {
  const code = node?.children.find(
    (child): child is HastElement => child.type === "element" && child.tagName === "code",
  );
  const classes = code?.properties.className;
  const language = Array.isArray(classes)
    ? classes.map(String).find((name) => name.startsWith("language-"))
    : undefined;
  return language ? language.slice("language-".length) : null;
}

function CodeBlock({ node, children, className, ...props }: ComponentProps<"pre"> & ExtraProps) {
  const ref = useRef<HTMLPreElement>(null);
  const language = languageOf(node);
  return (
    <div className="my-3 overflow-hidden rounded-lg border bg-muted/60">
      <div className="flex items-center justify-between border-b bg-muted px-3 py-1 text-xs text-muted-foreground">
        <span className="font-mono">{language ?? "code"}</span>
        <CopyButton text={() => ref.current?.textContent ?? ""} label="Copy code" />
      </div>
      <pre ref={ref} className={cn("overflow-x-auto p-3 font-mono text-[13px] leading-relaxed", className)} {...props}>
        {children}
      </pre>
    </div>
  );
}

const components: Components = {
  pre: CodeBlock,
  a: ({ node: _node, ...props }) => (
    <a {...props} target="_blank" rel="noreferrer noopener" className="text-brand underline underline-offset-2" />
  ),
  table: ({ node: _node, ...props }) => (
    <div className="my-3 overflow-x-auto">
      <table className="w-full border-collapse text-sm" {...props} />
    </div>
  ),
  th: ({ node: _node, ...props }) => <th className="border-b px-2 py-1 text-left font-semibold" {...props} />,
  td: ({ node: _node, ...props }) => <td className="border-b px-2 py-1 align-top" {...props} />,
};

type MarkdownNode = {
  type: string;
  value?: string;
  children?: MarkdownNode[];
  data?: { hName: string; hProperties: Record<string, string>; hChildren: { type: "text"; value: string }[] };
};

/**
 * A remark plugin: ISO dates in prose ("by 2026-12-04") in the user's form ("by Fri 4 Dec"), each a
 * <time> with the written date on hover; code is left as written.
 */
function localDates(dates: Pick<DateContext, "locale" | "today">) {
  const visit = (node: MarkdownNode) => {
    if (!node.children) return;
    node.children = node.children.flatMap((child): MarkdownNode[] => {
      if (child.type !== "text" || !child.value) {
        visit(child);
        return [child];
      }
      return splitDates(child.value, dates).map((part) =>
        typeof part === "string"
          ? { type: "text", value: part }
          : {
              type: "text",
              value: part.shown,
              data: {
                hName: "time",
                hProperties: { dateTime: part.iso, title: part.iso },
                hChildren: [{ type: "text", value: part.shown }],
              },
            },
      );
    });
  };
  return () => visit;
}

/**
 * Markdown as the assistant writes it: GFM (tables, lists, strikethrough), highlighted code (offline);
 * with `dates`, the dates in its prose in the user's locale.
 */
export const Markdown = memo(function Markdown({
  children,
  className,
  dates,
}: {
  children: string;
  className?: string;
  dates?: Pick<DateContext, "locale" | "today">;
}) {
  const locale = dates?.locale;
  const today = dates?.today;
  const remarkPlugins = useMemo(
    () => (locale && today ? [remarkGfm, localDates({ locale, today })] : [remarkGfm]),
    [locale, today],
  );
  return (
    <div
      className={cn(
        "space-y-3 leading-7 break-words [&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-muted [&_:not(pre)>code]:px-1 [&_:not(pre)>code]:py-0.5 [&_:not(pre)>code]:font-mono [&_:not(pre)>code]:text-[0.85em] [&_blockquote]:border-l-2 [&_blockquote]:pl-3 [&_blockquote]:text-muted-foreground [&_h1]:text-xl [&_h1]:font-semibold [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:font-semibold [&_hr]:my-4 [&_li]:my-1 [&_ol]:list-decimal [&_ol]:pl-6 [&_strong]:font-semibold [&_ul]:list-disc [&_ul]:pl-6",
        className,
      )}
    >
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={[[rehypeHighlight, { detect: false }]]}
        components={components}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
});
