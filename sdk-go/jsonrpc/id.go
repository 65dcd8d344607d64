package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// ID is a JSON-RPC request id: an integer from 0 to 2^53−1 or a string of 1..256
// UTF-8 bytes. The zero ID means "no id" (a notification) and marshals as null.
// IDs are comparable and may be used as map keys.
type ID struct {
	kind idKind
	num  int64
	str  string
}

type idKind uint8

const (
	idNone idKind = iota
	idInt
	idString
)

// IntID returns an integer id. n must be ≥ 0; encoding a negative id fails.
func IntID(n int64) ID { return ID{kind: idInt, num: n} }

// StringID returns a string id.
func StringID(s string) ID { return ID{kind: idString, str: s} }

// IsZero reports whether the id is absent (the request is a notification).
func (id ID) IsZero() bool { return id.kind == idNone }

// IsString reports whether the id is a string id.
func (id ID) IsString() bool { return id.kind == idString }

// Int returns the integer value and whether the id is an integer.
func (id ID) Int() (int64, bool) { return id.num, id.kind == idInt }

// String returns the id's value as text: "7" for 7 and "go:1" for "go:1"; "" for the
// zero id. Use %q or MarshalJSON where integer and string ids must stay distinct.
func (id ID) String() string {
	switch id.kind {
	case idInt:
		return strconv.FormatInt(id.num, 10)
	case idString:
		return id.str
	}
	return ""
}

// Value returns the id as its JSON value: int64, string, or nil for the zero id.
func (id ID) Value() any {
	switch id.kind {
	case idInt:
		return id.num
	case idString:
		return id.str
	}
	return nil
}

// MarshalJSON encodes the id; the zero id encodes as null.
func (id ID) MarshalJSON() ([]byte, error) {
	return id.appendJSON(nil)
}

func (id ID) appendJSON(b []byte) ([]byte, error) {
	switch id.kind {
	case idInt:
		if id.num < 0 || id.num > maxSafeInteger {
			return nil, fmt.Errorf("jsonrpc: id %d is outside 0..2^53-1", id.num)
		}
		return strconv.AppendInt(b, id.num, 10), nil
	case idString:
		if err := checkStringID(id.str); err != nil {
			return nil, err
		}
		return appendString(b, id.str), nil
	}
	return append(b, "null"...), nil
}

// UnmarshalJSON decodes an id strictly: a JSON integer (no sign, fraction or
// exponent) within 0..2^53−1, or a string of 1..256 UTF-8 bytes. null is refused;
// absence is expressed by leaving the field out.
func (id *ID) UnmarshalJSON(data []byte) error {
	v, err := parseID(data)
	if err != nil {
		return err
	}
	*id = v
	return nil
}

func parseID(data []byte) (ID, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return ID{}, fmt.Errorf("id is empty")
	}
	if data[0] == '"' {
		var s string
		if err := decodeString(data, &s); err != nil {
			return ID{}, fmt.Errorf("id %s is not a valid JSON string: %v", valueExcerpt(data), err)
		}
		if err := checkStringID(s); err != nil {
			return ID{}, err
		}
		return StringID(s), nil
	}
	for _, c := range data {
		if c < '0' || c > '9' {
			return ID{}, fmt.Errorf("id %s is neither an integer ≥ 0 nor a string", valueExcerpt(data))
		}
	}
	if len(data) > 1 && data[0] == '0' {
		return ID{}, fmt.Errorf("id %s has a leading zero", valueExcerpt(data))
	}
	n, err := strconv.ParseInt(string(data), 10, 64)
	if err != nil || n > maxSafeInteger {
		return ID{}, fmt.Errorf("id %s is larger than 2^53-1", valueExcerpt(data))
	}
	return IntID(n), nil
}

func checkStringID(s string) error {
	if s == "" {
		return fmt.Errorf("string id is empty; ids need 1..%d bytes", MaxIDBytes)
	}
	if len(s) > MaxIDBytes {
		return fmt.Errorf("string id of %d bytes exceeds the %d-byte limit", len(s), MaxIDBytes)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("string id is not valid UTF-8")
	}
	return nil
}

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	// json.Marshal of a string cannot fail; it escapes HTML characters, which is
	// still valid JSON and matches what every other encoder here produces.
	enc, _ := json.Marshal(s)
	return append(b, enc...)
}

// maxSafeInteger is 2^53−1, the largest integer every language's JSON keeps exact.
const maxSafeInteger = 1<<53 - 1
