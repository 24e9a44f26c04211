-- pgvector must exist before any table uses vector(n). drizzle-kit does not emit this.
CREATE EXTENSION IF NOT EXISTS vector;
