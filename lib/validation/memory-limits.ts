/** Apart from ./memories, which reads db/queries: the browser's restore reader (lib/import/lifeline.ts) imports these. */
export const MEMORY_CONTENT_MAX = 2000;
export const MEMORY_TITLE_MAX = 255;
export const MEMORY_TAG_MAX = 40;
export const MEMORY_TAGS_MAX = 20;
