package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
)

// Canonical re-encodes a JSON value in canonical form: no insignificant
// whitespace, object keys sorted by their UTF-8 bytes, strings with minimal
// escapes (no HTML escaping), integers in plain decimal and other numbers in
// the shortest form that round-trips a float64. Two encodings of the same
// value ("1.0" and "1", reordered keys) therefore give the same bytes and
// the same KV version. Duplicate object keys are refused: their meaning
// differs between JSON parsers.
func Canonical(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var buf bytes.Buffer
	if err := canonicalValue(dec, &buf); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("canonical JSON: trailing data after the value")
	}
	return buf.Bytes(), nil
}

// Digest is the lowercase hex SHA-256 of b.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func canonicalValue(dec *json.Decoder, buf *bytes.Buffer) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("canonical JSON: %w", err)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			return canonicalObject(dec, buf)
		case '[':
			buf.WriteByte('[')
			for i := 0; dec.More(); i++ {
				if i > 0 {
					buf.WriteByte(',')
				}
				if err := canonicalValue(dec, buf); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return fmt.Errorf("canonical JSON: %w", err)
			}
			buf.WriteByte(']')
			return nil
		}
		return fmt.Errorf("canonical JSON: unexpected %q", t)
	case string:
		writeString(buf, t)
	case json.Number:
		s, err := canonicalNumber(t)
		if err != nil {
			return err
		}
		buf.WriteString(s)
	case bool:
		buf.WriteString(strconv.FormatBool(t))
	case nil:
		buf.WriteString("null")
	}
	return nil
}

func canonicalObject(dec *json.Decoder, buf *bytes.Buffer) error {
	type member struct {
		key string
		val []byte
	}
	var members []member
	seen := map[string]bool{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return fmt.Errorf("canonical JSON: %w", err)
		}
		key := kt.(string)
		if seen[key] {
			return fmt.Errorf("canonical JSON: duplicate object key %q", key)
		}
		seen[key] = true
		var vb bytes.Buffer
		if err := canonicalValue(dec, &vb); err != nil {
			return err
		}
		members = append(members, member{key, vb.Bytes()})
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("canonical JSON: %w", err)
	}
	sort.Slice(members, func(i, j int) bool { return members[i].key < members[j].key })
	buf.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeString(buf, m.key)
		buf.WriteByte(':')
		buf.Write(m.val)
	}
	buf.WriteByte('}')
	return nil
}

func canonicalNumber(n json.Number) (string, error) {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return strconv.FormatInt(i, 10), nil
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", fmt.Errorf("canonical JSON: number %s is out of range", n)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.FormatInt(int64(f), 10), nil
	}
	return strconv.FormatFloat(f, 'g', -1, 64), nil
}

func writeString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // cannot fail for a string
	buf.Truncate(buf.Len() - 1)
}
