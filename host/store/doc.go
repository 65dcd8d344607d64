// Package store is the reference host's durable state: one SQLite database
// (modernc.org/sqlite, pure Go, WAL) in the state directory, plus a
// content-addressed blob directory for artifact bytes.
//
// What lives where, and why:
//
//   - state.db holds KV, artifact metadata, call records, child-session
//     records, approval tokens (their SHA-256, never the token), host events
//     and recorded frames. Everything an operator inspects is one file. Host
//     events are group-committed and pruned to the newest EVENTS_RETAINED
//     (events.go).
//   - artifacts/sha256/ab/cdef… holds artifact bytes, named by their
//     SHA-256. Artifacts are up to 20 MiB each; keeping them out of SQLite
//     keeps the WAL and page cache small, lets ingestion stream to a temp
//     file and publish with one atomic rename, and deduplicates identical
//     bytes for free. The database row is the authority: a blob without a
//     row is unreachable, a row is written only after its blob is durable.
//
// Schema changes are migrations numbered in code (migrate.go), applied in one
// transaction each, with the version recorded in PRAGMA user_version.
package store
