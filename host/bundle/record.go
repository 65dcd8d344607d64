package bundle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// RecordFile is the file the host writes into every bundle it publishes. Its presence (and
// validity) is what makes a directory a managed bundle.
const RecordFile = "install.json"

// RecordSchema is the install.json schema this host writes and reads.
const RecordSchema = 1

// Record is install.json: what was installed, from where, by which host. Every field is
// required; reading refuses unknown, duplicate or differently-cased fields.
type Record struct {
	Schema        int    `json:"schema"`         // RecordSchema
	ID            string `json:"id"`             // the extension's name, which is its directory's name
	Version       string `json:"version"`        // the extension's version (manifest version)
	APIVersion    string `json:"api_version"`    // the manifest's api_version: "0.2" or "0.4"
	RequiresOctet string `json:"requires_octet"` // the manifest's exact pin, e.g. "=0.8.0"
	Source        string `json:"source"`         // canonical absolute path of the local archive
	SHA256        string `json:"sha256"`         // lowercase hex SHA-256 of the archive file
	OctetVersion  string `json:"octet_version"`  // the octet version of the installing host
	InstalledAt   string `json:"installed_at"`   // RFC 3339, UTC, whole seconds
}

var (
	recordFields = []string{"schema", "id", "version", "api_version", "requires_octet", "source", "sha256", "octet_version", "installed_at"}
	sha256RE     = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// ReadRecord reads and strictly validates dir/install.json (a regular, non-symlink file).
func ReadRecord(dir string) (*Record, error) {
	path := filepath.Join(dir, RecordFile)
	data, err := manifest.ReadBounded(path, maxRecordBytes)
	if err != nil {
		return nil, refuse(path, RuleRecord, "%v", err)
	}
	r, err := decodeRecord(data)
	if err != nil {
		return nil, refuse(path, RuleRecord, "%v", err)
	}
	return r, nil
}

// decodeRecord decodes install.json strictly: one object, exactly the known field names
// (Go's case-insensitive matching would otherwise accept "ID" for "id"), each once, no
// trailing data, and plausible values.
func decodeRecord(data []byte) (*Record, error) {
	// Counted before any decoder runs, as for every JSON document (MAX_JSON_DEPTH).
	if at := strictjson.NestingOffset(data); at >= 0 {
		return nil, fmt.Errorf("%s at byte %d", strictjson.Nesting, at)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("is not a JSON object")
	}
	got := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("is not valid JSON: %v", err)
		}
		key, _ := tok.(string)
		switch {
		case !slices.Contains(recordFields, key):
			return nil, fmt.Errorf("field %q is not known to this host", key)
		case got[key]:
			return nil, fmt.Errorf("field %q appears twice", key)
		}
		got[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, fmt.Errorf("field %q: %v", key, err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("is not valid JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("has data after the JSON object")
	}
	for _, f := range recordFields {
		if !got[f] {
			return nil, fmt.Errorf("field %q is missing", f)
		}
	}
	var r Record
	strict := json.NewDecoder(bytes.NewReader(data))
	strict.DisallowUnknownFields()
	if err := strict.Decode(&r); err != nil {
		return nil, fmt.Errorf("does not decode: %v", err)
	}
	if err := r.check(); err != nil {
		return nil, err
	}
	return &r, nil
}

func (r *Record) check() error {
	switch {
	case r.Schema != RecordSchema:
		return fmt.Errorf("schema %d is not supported by this host (it reads schema %d); reinstall the bundle", r.Schema, RecordSchema)
	case r.ID == "" || r.ID != filepath.Base(r.ID) || r.ID[0] == '.':
		return fmt.Errorf("id %q is not an extension name", r.ID)
	case r.Version == "":
		return fmt.Errorf("version is empty")
	case r.APIVersion != "0.2" && r.APIVersion != "0.4":
		return fmt.Errorf("api_version %q is not a bundle API version (0.2 or 0.4)", r.APIVersion)
	case len(r.RequiresOctet) < 2 || r.RequiresOctet[0] != '=':
		return fmt.Errorf("requires_octet %q is not an exact pin", r.RequiresOctet)
	case !filepath.IsAbs(r.Source):
		return fmt.Errorf("source %q is not an absolute path", r.Source)
	case !sha256RE.MatchString(r.SHA256):
		return fmt.Errorf("sha256 %q is not 64 lowercase hex digits", r.SHA256)
	case r.OctetVersion == "":
		return fmt.Errorf("octet_version is empty")
	}
	if _, err := time.Parse(time.RFC3339, r.InstalledAt); err != nil {
		return fmt.Errorf("installed_at %q is not an RFC 3339 time", r.InstalledAt)
	}
	return nil
}

// writeRecord writes dir/install.json, which must not exist yet.
func writeRecord(dir string, r *Record) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, RecordFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Chmod(filepath.Join(dir, RecordFile), 0o644)
}
