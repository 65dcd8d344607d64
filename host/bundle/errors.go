package bundle

import (
	"fmt"
	"strings"

	"github.com/octet-kit/octet/host/manifest"
)

// Rule identifies why an operation was refused. Rules are part of the CLI's stable output.
type Rule string

// The refusal rules.
const (
	RuleArchive       Rule = "archive"        // the file is not a readable tar or tar.gz archive
	RuleArchiveSize   Rule = "archive_size"   // the archive file is larger than MaxArchiveBytes
	RuleEntrySize     Rule = "entry_size"     // one file is larger than MaxEntryBytes
	RuleManifestSize  Rule = "manifest_size"  // extension.toml is larger than MaxManifestBytes
	RuleExpandedSize  Rule = "expanded_size"  // the files add up to more than MaxExpandedBytes
	RuleEntryCount    Rule = "entry_count"    // more than MaxEntries entries
	RulePathLength    Rule = "path_length"    // a path longer than MaxPathBytes or deeper than MaxPathDepth
	RulePathEncoding  Rule = "path_encoding"  // a path that is not valid UTF-8
	RulePathPortable  Rule = "path_portable"  // absolute, "..", ".", empty elements, backslash, NUL, control or reserved characters
	RuleRoot          Rule = "root"           // no root directory, or a file at the top level
	RuleMultipleRoots Rule = "multiple_roots" // entries under more than one top-level directory
	RuleDuplicate     Rule = "duplicate"      // the same path twice, also differing only in case
	RuleLink          Rule = "link"           // a symbolic or hard link
	RuleEntryType     Rule = "entry_type"     // a device, FIFO or any other non-regular, non-directory entry
	RuleReserved      Rule = "reserved"       // install.json shipped in the archive (the host writes it)
	RuleManifest      Rule = "manifest"       // extension.toml missing or invalid (see the diagnostics)
	RuleDirectoryName Rule = "directory_name" // the root directory's name differs from the manifest name
	RuleAPIVersion    Rule = "api_version"    // API 0.1 (unpackaged only) in a bundle
	RuleRequiresOctet Rule = "requires_octet" // requires_octet missing (bundles must pin the host version)
	RuleEntrypoint    Rule = "entrypoint"     // a relative entrypoint that is not a regular file of the bundle
	RuleExists        Rule = "exists"         // install over an existing directory
	RuleNotInstalled  Rule = "not_installed"  // update or remove of a name that is not there
	RuleUnmanaged     Rule = "unmanaged"      // the directory is not a managed bundle (no valid install.json)
	RuleName          Rule = "name"           // remove of a name that cannot be an extension directory
	RuleRecord        Rule = "record"         // install.json is malformed
	RulePublish       Rule = "publish"        // a filesystem operation failed while publishing
	RulePermissions   Rule = "permissions"    // an update asks for more than the installed bundle, without consent
	RuleRootDirectory Rule = "root_directory" // the extension root cannot be created, locked or read
)

// Error is a refusal: which archive entry, path or bundle it is about, the rule, and what
// to do. Manifest refusals carry the validator's diagnostics.
type Error struct {
	Entry       string // archive entry ("hello/bin/x"), bundle name or file the refusal is about
	Rule        Rule
	Message     string
	Diagnostics []manifest.Diagnostic // set for RuleManifest
}

// Error renders "entry: message [rule]", followed by each diagnostic.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Entry != "" {
		fmt.Fprintf(&b, "%s: ", e.Entry)
	}
	fmt.Fprintf(&b, "%s [%s]", e.Message, e.Rule)
	for _, d := range e.Diagnostics {
		b.WriteString("\n  ")
		b.WriteString(d.String())
	}
	return b.String()
}

// Is matches another *Error with the same rule, so callers can test
// errors.Is(err, &bundle.Error{Rule: bundle.RuleExists}).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Rule == e.Rule
}

func refuse(entry string, rule Rule, format string, args ...any) *Error {
	return &Error{Entry: entry, Rule: rule, Message: fmt.Sprintf(format, args...)}
}
