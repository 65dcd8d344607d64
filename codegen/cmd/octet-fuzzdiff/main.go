// Command octet-fuzzdiff is the cross-language differential fuzz: it makes a corpus of
// random and mutated documents from schema/vectors (deterministic from -seed), has
// santhosh-tekuri on the real schema judge each, feeds the same corpus to the Go, Python and
// TypeScript drivers (JSON lines on stdin, verdicts on stdout; each driver lives with its SDK,
// so this harness never links generated code) and fails on any disagreement, printing the
// input.
//
// Three kinds of case: "decode" (the strict decoder of each language: refused, or the same
// value), "frame" (each SDK's wire frame decoder: Python's _codec.loads and TypeScript's
// parseFrame, against the Go strict decoder) and "validate" (the generated validator of a
// named type, after strict decoding).
//
// Run from the repository root: go run ./codegen/cmd/octet-fuzzdiff -seed 1 -count 2000
// (the mage target fuzzDiff builds the drivers' environments first).
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/octet-kit/octet/codegen/internal/ir"
	"github.com/octet-kit/octet/schema"
)

// fuzzCase is one line of the corpus the drivers read.
type fuzzCase struct {
	ID   int    `json:"id"`
	Kind string `json:"kind"`
	Type string `json:"type,omitempty"`
	Data string `json:"data"`          // base64: the bytes need not be UTF-8
	Why  string `json:"why,omitempty"` // a regression case says what it once caught
}

// verdict is one line a driver writes.
type verdict struct {
	ID      int    `json:"id"`
	Verdict string `json:"verdict"`
	Detail  string `json:"detail,omitempty"`
}

func main() {
	seed := flag.Uint64("seed", 1, "random seed: the same seed makes the same corpus")
	count := flag.Int("count", 2000, "documents to generate (each becomes a decode, a frame and a validate case)")
	python := flag.String("python", ".venv/bin/python", "Python interpreter with the SDK installed")
	node := flag.String("node", "node", "Node.js")
	out := flag.String("failures", "", "write the disagreeing cases here as JSON lines (for replay with -replay)")
	replay := flag.String("replay", "", "judge the cases in this JSON-lines file instead of generating")
	appendTo := flag.Bool("append", false, "append to the -failures file instead of replacing it (keeping a regression corpus)")
	flag.Parse()
	if err := run(*seed, *count, *python, *node, *out, *replay, *appendTo); err != nil {
		fmt.Fprintln(os.Stderr, "fuzzdiff:", err)
		os.Exit(1)
	}
}

func run(seed uint64, count int, python, node, failuresFile, replay string, appendTo bool) error {
	m, err := ir.Load(os.DirFS("schema"))
	if err != nil {
		return err
	}
	var cases []fuzzCase
	if replay != "" {
		if cases, err = readCases(replay); err != nil {
			return err
		}
	} else {
		seeds, err := loadSeeds()
		if err != nil {
			return err
		}
		depth, err := maxJSONDepth(m)
		if err != nil {
			return err
		}
		g := newGen(seed, seeds, depth)
		for i := 0; i < count; i++ {
			typ, data := g.doc()
			enc := base64.StdEncoding.EncodeToString(data)
			cases = append(cases,
				fuzzCase{ID: 3 * i, Kind: "decode", Data: enc},
				fuzzCase{ID: 3*i + 1, Kind: "frame", Data: enc},
				fuzzCase{ID: 3*i + 2, Kind: "validate", Type: typ, Data: enc})
		}
	}
	judges := map[string][]verdict{}
	if judges["oracle"], err = oracleVerdicts(m, cases); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "octet-fuzzdiff-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	goBin, err := goDriver(tmp)
	if err != nil {
		return err
	}
	if judges["go"], err = driver(cases, goBin); err != nil {
		return err
	}
	if judges["python"], err = driver(cases, python, "sdk-python/tests/fuzzdiff_driver.py"); err != nil {
		return err
	}
	if judges["typescript"], err = driver(cases, node, "sdk-typescript/dist/test/fuzzdiff.driver.js"); err != nil {
		return err
	}
	failed := disagreements(cases, judges, os.Stdout)
	kinds := map[string]int{}
	for _, c := range cases {
		kinds[c.Kind]++
	}
	fmt.Printf("fuzzdiff: seed %d, %d cases (%d decode, %d frame, %d validate), %d disagreements\n",
		seed, len(cases), kinds["decode"], kinds["frame"], kinds["validate"], len(failed))
	if len(failed) == 0 {
		return nil
	}
	if failuresFile != "" {
		for i := range failed {
			failed[i].Why = fmt.Sprintf("found by seed %d", seed)
		}
		if err := writeCases(failuresFile, failed, appendTo); err != nil {
			return err
		}
		fmt.Printf("fuzzdiff: the disagreeing cases are in %s (replay: -replay %s)\n", failuresFile, failuresFile)
	}
	return fmt.Errorf("%d cases judged differently", len(failed))
}

// disagreements returns the cases not every judge gave Go's verdict (the oracle judges only
// validate cases), printing each input and every verdict to w.
func disagreements(cases []fuzzCase, judges map[string][]verdict, w io.Writer) []fuzzCase {
	var failed []fuzzCase
	for i, c := range cases {
		names := []string{"go", "python", "typescript"}
		if c.Kind == "validate" {
			names = append(names, "oracle")
		}
		want := judges["go"][i].Verdict
		agree := true
		for _, n := range names {
			if judges[n][i].Verdict != want {
				agree = false
			}
		}
		if agree {
			continue
		}
		failed = append(failed, c)
		data, _ := base64.StdEncoding.DecodeString(c.Data)
		fmt.Fprintf(w, "DISAGREE case %d (%s %s): input %q %s\n", c.ID, c.Kind, c.Type, excerpt(data), c.Why)
		for _, n := range names {
			v := judges[n][i]
			fmt.Fprintf(w, "  %-10s %s %s\n", n, v.Verdict, excerpt([]byte(v.Detail)))
		}
	}
	return failed
}

// oracleVerdicts judges the validate cases with santhosh-tekuri compiling the real schema
// (the oracle), after strict decoding with the schema package's decoder; the other cases get
// no oracle verdict (it is not compared).
func oracleVerdicts(m *ir.Model, cases []fuzzCase) ([]verdict, error) {
	c, err := schema.NewCompiler(os.DirFS("schema"))
	if err != nil {
		return nil, err
	}
	compiled := map[string]*jsonschema.Schema{}
	var oracle []verdict
	for _, fc := range cases {
		data, err := base64.StdEncoding.DecodeString(fc.Data)
		if err != nil {
			return nil, fmt.Errorf("case %d: %v", fc.ID, err)
		}
		o := verdict{ID: fc.ID}
		doc, perr := schema.Decode(data)
		switch {
		case fc.Kind != "validate":
		case perr != nil:
			o.Verdict, o.Detail = "refused", perr.Error()
		default:
			n := m.Lookup(fc.Type)
			if n == nil {
				return nil, fmt.Errorf("case %d: no schema type %q", fc.ID, fc.Type)
			}
			sch := compiled[fc.Type]
			if sch == nil {
				if sch, err = c.Compile(schema.BaseURL + n.File.Path + "#" + n.Pointer); err != nil {
					return nil, err
				}
				compiled[fc.Type] = sch
			}
			o.Verdict, o.Detail = judged(sch.Validate(doc))
		}
		oracle = append(oracle, o)
	}
	return oracle, nil
}

// goDriver builds the Go SDK's driver (sdk-go/internal/fuzzdiffdriver) into dir: the
// generated Go code is judged by a program of the SDK's, never linked into this harness.
func goDriver(dir string) (string, error) {
	bin := filepath.Join(dir, "fuzzdiffdriver")
	cmd := exec.Command("go", "build", "-o", bin, "./internal/fuzzdiffdriver")
	cmd.Dir = "sdk-go"
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build the Go driver: %w", err)
	}
	return bin, nil
}

func judged(err error) (string, string) {
	if err != nil {
		return "invalid", err.Error()
	}
	return "valid", ""
}

// driver runs one language's driver over the corpus and returns its verdicts in case order.
func driver(cases []fuzzCase, bin string, args ...string) ([]verdict, error) {
	script := strings.Join(append([]string{bin}, args...), " ")
	cmd := exec.Command(bin, args...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", script, err)
	}
	go func() {
		w := bufio.NewWriter(stdin)
		enc := json.NewEncoder(w)
		for _, c := range cases {
			_ = enc.Encode(c)
		}
		_ = w.Flush()
		_ = stdin.Close()
	}()
	var out []verdict
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var v verdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s: bad verdict line %q: %v", script, excerpt(sc.Bytes()), err)
		}
		out = append(out, v)
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("%s: %w", script, err)
	}
	if len(out) != len(cases) {
		return nil, fmt.Errorf("%s wrote %d verdicts for %d cases", script, len(out), len(cases))
	}
	for i, v := range out {
		if v.ID != cases[i].ID {
			return nil, fmt.Errorf("%s: verdict %d is for case %d, want %d", script, i, v.ID, cases[i].ID)
		}
	}
	return out, nil
}

// loadSeeds reads every vector, and the hostile corpus when it exists.
func loadSeeds() ([]seedDoc, error) {
	files, err := filepath.Glob(filepath.Join("schema", "vectors", "*", "*", "*.json"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no vectors under schema/vectors (run from the repository root): %v", err)
	}
	sort.Strings(files)
	var seeds []seedDoc
	for _, p := range files {
		raw, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		typ := filepath.Base(filepath.Dir(filepath.Dir(p)))
		seeds = append(seeds, seedDoc{typ: typ, raw: raw})
	}
	hostile, _ := filepath.Glob(filepath.Join("host", "testdata", "hostile", "*"))
	sort.Strings(hostile)
	for i, p := range hostile {
		if raw, err := os.ReadFile(p); err == nil {
			seeds = append(seeds, seedDoc{typ: seeds[i%len(seeds)].typ, raw: raw})
		}
	}
	return seeds, nil
}

func readCases(path string) ([]fuzzCase, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cases []fuzzCase
	d := json.NewDecoder(strings.NewReader(string(data)))
	for {
		var c fuzzCase
		if err := d.Decode(&c); err == io.EOF {
			return cases, nil
		} else if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		cases = append(cases, c)
	}
}

func writeCases(path string, cases []fuzzCase, appendTo bool) error {
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appendTo {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, c := range cases {
		if err := enc.Encode(c); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

func excerpt(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

func sortStrings(s []string) { sort.Strings(s) }
