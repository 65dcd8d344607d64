package services

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// artifactWording keeps the reasons artifact/publish has always given for faults the schema
// now judges (the digest's pattern, the size's range, the inline data's alphabet and length).
var artifactWording = wording{
	"/sha256 pattern": func(string) string { return "must be 64 lowercase hex digits" },
	"/size maximum":   func(got string) string { return fmt.Sprintf("%s is outside 0..%d bytes", got, artifactMaxBytes) },
	"/size minimum":   func(got string) string { return fmt.Sprintf("%s is outside 0..%d bytes", got, artifactMaxBytes) },
	"/data pattern":   func(string) string { return "is not valid base64" },
	"/data maxLength": func(string) string {
		return fmt.Sprintf("decodes to more than %d bytes; publish larger artifacts through the scratch path", artifactInlineMaxBytes)
	},
	"/path minLength": func(string) string {
		return `"" must be a relative path inside the scratch directory (no .., not absolute)`
	},
}

// artifactRules are the host's rules on artifact/publish params, judged once their structure
// is good: a real MIME type (the schema allows any string), a plain-text name of at most 256
// bytes, and the form (artifactForm).
func artifactRules(raw json.RawMessage) error {
	var p struct {
		MIMEType string `json:"mime_type"`
		Name     string `json:"name"`
	}
	_ = json.Unmarshal(raw, &p) // the structure is known good (decodeBinding)
	if !validMIME(p.MIMEType) {
		return invalidParams("mime_type", "%q is not a MIME type: want lowercase type/subtype (e.g. application/octet-stream), at most %d bytes, no parameters", p.MIMEType, mimeMaxBytes)
	}
	if len(p.Name) > 256 || hasControl(p.Name, false) {
		return invalidParams("name", "must be at most 256 bytes of plain text")
	}
	return artifactForm(raw)
}

// formMember reports a schema fault about which form the params take (a stray or missing
// data, path, size or sha256): artifactForm words those, after the other host rules.
func formMember(f protocol.ValidationError) bool {
	if f.Keyword == "required" || f.Keyword == "additionalProperties" {
		switch quotedTail(f.Msg) {
		case "data", "path", "size", "sha256":
			return f.Pointer == ""
		}
	}
	return false
}

// artifactForm is the rule that picks the params' form, worded for the author: exactly one
// of data (inline) or path, and size and sha256 exactly with path. The schema selects the
// variant by the presence of path and would name only the first stray or missing member.
func artifactForm(raw json.RawMessage) error {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return nil // not an object: the schema says so
	}
	has := func(k string) bool { _, ok := top[k]; return ok }
	inline := has("data")
	switch {
	case inline == has("path"):
		return invalidParams("data", "give exactly one of data (inline base64) or path (in the scratch directory)")
	case inline && (has("size") || has("sha256")):
		return invalidParams("size", "size and sha256 belong to the path form; inline data is measured by the host")
	case !inline && (!has("size") || !has("sha256")):
		return invalidParams("size", "the path form needs both size and sha256")
	}
	return nil
}

// artifactPublish verifies and stores an artifact for the active owner of
// the parent request and this generation.
func (r *Router) artifactPublish(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	u, err := decodeBinding(raw, artifactWording, func(*protocol.ArtifactPublishParams) error { return artifactRules(raw) }, formMember)
	if err != nil {
		return nil, err
	}
	parent, mimeType, name := artifactCommon(u)
	sig := signatureFor(mimeType)
	inline := u.ArtifactPublishInline != nil
	_, owner, _, done, err := r.withParent(ctx, c, parent)
	if err != nil {
		return nil, err
	}
	defer done()

	bw, err := r.store.NewBlobWriter()
	if err != nil {
		return nil, internal("artifact storage: %v", err)
	}
	if inline {
		err = r.ingestInline(bw, deref(u.ArtifactPublishInline.Data), sig)
	} else {
		f := u.ArtifactPublishFile
		err = r.ingestScratch(bw, c.ScratchDir, f.Path, f.Size, f.SHA256, sig)
	}
	if err != nil {
		bw.Abort()
		return nil, err
	}
	size := bw.Size()
	sum, err := bw.Commit()
	if err != nil {
		return nil, internal("artifact storage: %v", err)
	}
	id, err := r.randomHex(16)
	if err != nil {
		return nil, internal("artifact id: %v", err)
	}
	a := store.Artifact{ID: "artifact:" + id, Extension: c.Extension, Principal: c.Principal, SessionID: owner.SessionID,
		InstanceID: c.InstanceID, Generation: c.Generation, MIMEType: mimeType, Name: name, Size: size, SHA256: sum,
		CreatedAtMS: r.now().UnixMilli()}
	if err := r.store.PutArtifact(ctx, a, artifactGenerationMaxCount, artifactGenerationMaxBytes); err != nil {
		// The blob stays: it is content-addressed and may be shared with
		// another artifact; an unreferenced blob is harmless.
		if errors.Is(err, store.ErrQuota) {
			return nil, unavailable("%v", err)
		}
		return nil, internal("record artifact: %v", err)
	}
	return protocol.ArtifactPublishResult{ArtifactID: a.ID, Size: size, SHA256: sum}, nil
}

// artifactCommon is what both forms of artifact/publish carry.
func artifactCommon(u protocol.ArtifactPublishParams) (parent protocol.RequestID, mimeType, name string) {
	if f := u.ArtifactPublishFile; f != nil {
		return f.ParentRequestID, f.MIMEType, deref(f.Name)
	}
	i := u.ArtifactPublishInline
	return i.ParentRequestID, i.MIMEType, deref(i.Name)
}

func (r *Router) ingestInline(bw *store.BlobWriter, data string, sig func([]byte) bool) error {
	if base64.StdEncoding.DecodedLen(len(data)) > artifactInlineMaxBytes+3 {
		return invalidParams("data", "decodes to more than %d bytes; publish larger artifacts through the scratch path", artifactInlineMaxBytes)
	}
	b, err := base64.StdEncoding.Strict().DecodeString(data)
	if err != nil {
		return invalidParams("data", "is not valid base64: %v", err)
	}
	if len(b) > artifactInlineMaxBytes {
		return invalidParams("data", "decodes to %d bytes; the inline limit is %d", len(b), artifactInlineMaxBytes)
	}
	if !sig(b) {
		return invalidParams("data", "the bytes do not carry the declared mime_type's signature")
	}
	if _, err := bw.Write(b); err != nil {
		return internal("artifact storage: %v", err)
	}
	return nil
}

// ingestScratch copies a file from the scratch directory. The path must stay
// inside the scratch dir after every symlink is resolved, name a regular
// file, and match the declared size and digest; the copy is what gets
// verified, so a file changed after the check cannot slip through.
//
// The bytes are copied, never hard-linked or renamed into the store, even when
// the scratch directory shares the store's filesystem: a link or rename keeps
// the extension's inode, and the extension may still hold a descriptor or a
// writable mapping of it (or, with the same uid, reopen a read-only descriptor
// for writing through /proc/self/fd), so it could rewrite stored bytes after
// they were verified. A link count or lease check cannot rule that out. One
// pass reads, writes and hashes (store.BlobWriter.ReadFrom).
func (r *Router) ingestScratch(bw *store.BlobWriter, scratchDir, rel string, size int64, sum string, sig func([]byte) bool) error {
	if scratchDir == "" {
		return unavailable("this generation has no scratch directory")
	}
	if rel == "" || strings.ContainsRune(rel, 0) || filepath.IsAbs(rel) || !filepath.IsLocal(rel) {
		return invalidParams("path", "%q must be a relative path inside the scratch directory (no .., not absolute)", rel)
	}
	// os.Root resolves the path (symlinks included) strictly beneath the
	// scratch directory and refuses anything that would leave it, with no
	// window between checking and opening for a swapped symlink to exploit.
	root, err := os.OpenRoot(scratchDir)
	if err != nil {
		return unavailable("scratch directory: %v", err)
	}
	defer root.Close()
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return invalidParams("path", "%q cannot be resolved in the scratch directory: no such file", rel)
	case err != nil && strings.Contains(err.Error(), "escapes"):
		return invalidParams("path", "%q resolves outside the scratch directory", rel)
	case err != nil:
		return invalidParams("path", "%q cannot be opened: %v", rel, errors.Unwrap(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return invalidParams("path", "%q cannot be read: %v", rel, err)
	}
	if !fi.Mode().IsRegular() {
		return invalidParams("path", "%q is not a regular file", rel)
	}
	if fi.Size() != size {
		return invalidParams("size", "declared %d bytes but %q has %d", size, rel, fi.Size())
	}
	head := make([]byte, min(size, mimeHeadBytes))
	if _, err := io.ReadFull(f, head); err != nil {
		return invalidParams("path", "%q could not be read: %v", rel, err)
	}
	if !sig(head) {
		return invalidParams("path", "%q does not carry the declared mime_type's signature", rel)
	}
	bw.Write(head)
	// Copy at most one byte more than declared, to notice a growing file.
	if _, err := io.Copy(bw, io.LimitReader(f, size-int64(len(head))+1)); err != nil {
		return internal("artifact copy: %v", err)
	}
	if bw.Size() != size {
		return invalidParams("size", "declared %d bytes but read %d (the file changed while publishing)", size, bw.Size())
	}
	if got := bw.Sum(); got != sum {
		return invalidParams("sha256", "declared %s but the bytes hash to %s", sum, got)
	}
	return nil
}

func (r *Router) randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(r.cfg.Random, b); err != nil {
		return "", fmt.Errorf("random source: %w", err)
	}
	return hex.EncodeToString(b), nil
}
