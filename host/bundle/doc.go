// Package bundle installs, updates, removes and lists extension bundles: local .tar.gz (or
// plain .tar) archives holding exactly one extension directory, published under an
// extension root (by default the host's global root, ~/.octet/extensions).
//
// Installation only places files. It never enables, starts or trusts the extension, never
// writes the host config, and never runs extension code (there is no install hook). The
// published directory is found by ordinary discovery and stays disabled until enabled.
//
// Every archive entry is checked before anything is published (limits.go names the bounds):
// portable UTF-8 paths under one root named for the extension, regular files and directories
// only, no duplicates (also case-only ones), no shipped install.json. The candidate's
// extension.toml is validated by host/manifest, and bundles must in addition declare API
// 0.2 or 0.4 and pin requires_octet to exactly the host's octet version.
//
// Files are extracted into a private staging directory inside the root (same filesystem),
// fsynced (files and directories), and published by one atomic rename. An update validates
// the complete candidate first; on Linux it exchanges candidate and current bundle in one
// step (renameat2 RENAME_EXCHANGE), so the name never stops naming a complete bundle.
// Where exchange is unavailable it moves the current bundle aside, renames the candidate
// in, and moves the old one back if that fails; the aside directory is the recovery
// journal (package recovery). The host writes install.json (record.go) into every bundle it
// publishes; only directories holding a valid one are managed and may be updated or removed.
//
// All operations on one root are serialised by an advisory lock on <root>/.lock, so
// leftovers of a crashed operation (dot-directories, which discovery ignores) are recognised
// and cleaned up, or rolled back, by the next operation, by bundle list and by discovery:
// after a crash at any step the extension is found at its old or its new version.
// The archive path must name a regular file; a FIFO or device is refused before the root
// is locked, without opening it.
package bundle
