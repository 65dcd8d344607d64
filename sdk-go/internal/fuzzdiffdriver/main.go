// Command fuzzdiffdriver is the Go side of the cross-language differential fuzz
// (codegen/cmd/octet-fuzzdiff), like sdk-python/tests/fuzzdiff_driver.py and
// sdk-typescript/test/fuzzdiff.driver.ts for their SDKs: it reads cases as JSON lines on
// stdin and writes one verdict line per case on stdout. "decode" and "frame" run the strict
// decoder (protocol/strictjson), "validate" strict decoding then the generated validator of
// the named type (protocol.Validate). An accepted document is reported by the hash of its
// canonical form (canon.go).
//
// It lives with the SDK it judges so that the fuzz harness, part of the generator's tree,
// never imports generated code: the harness runs this driver as it runs the other two.
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// fuzzCase is one line the harness writes.
type fuzzCase struct {
	ID   int    `json:"id"`
	Kind string `json:"kind"`
	Type string `json:"type,omitempty"`
	Data string `json:"data"` // base64: the bytes need not be UTF-8
}

// verdict is one line this driver writes.
type verdict struct {
	ID      int    `json:"id"`
	Verdict string `json:"verdict"`
	Detail  string `json:"detail,omitempty"`
}

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fuzzdiffdriver:", err)
		os.Exit(1)
	}
}

func run(in *os.File, out *os.File) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	for sc.Scan() {
		var fc fuzzCase
		if err := json.Unmarshal(sc.Bytes(), &fc); err != nil {
			return fmt.Errorf("bad case line: %v", err)
		}
		v, err := judge(fc)
		if err != nil {
			return err
		}
		if err := enc.Encode(v); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return w.Flush()
}

// judge is Go's verdict on one case.
func judge(fc fuzzCase) (verdict, error) {
	data, err := base64.StdEncoding.DecodeString(fc.Data)
	if err != nil {
		return verdict{}, fmt.Errorf("case %d: %v", fc.ID, err)
	}
	v := verdict{ID: fc.ID}
	doc, perr := strictjson.Parse(data)
	switch {
	case perr != nil:
		v.Verdict, v.Detail = "refused", perr.Error()
	case fc.Kind != "validate":
		v.Verdict = "ok:" + canonical(doc)
	default:
		if err := protocol.Validate(fc.Type, doc); err != nil {
			v.Verdict, v.Detail = "invalid", err.Error()
		} else {
			v.Verdict = "valid"
		}
	}
	return v, nil
}
