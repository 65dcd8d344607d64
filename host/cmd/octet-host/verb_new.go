package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/octet-kit/octet/host/conformance/scaffold"
)

const newHelp = `
Usage: octet-host new --lang go|python|typescript [--kit DIR | --sdk DIST] [--no-build] NAME [DIR]

Writes a new extension NAME into DIR (default ./NAME; its last element must be NAME):
the manifest, the code (one tool, hello), a test through the SDK's testing helper and a
README. It passes 'octet-host certify' as written.

Inside a checkout of the kit (found from DIR upwards, from the working directory upwards,
or --kit) the extension uses the kit's SDK sources, and TypeScript and Go are compiled once
unless --no-build. Outside a checkout --sdk DIST is required: a release directory written
by 'go run mage.go dist' in a checkout (the SDK packages are not on the public registries
yet). The scaffold installs the released SDK packages from there and needs no environment
variables (the Go SDK is unpacked into the scaffold, the wheel and the npm tarball are
installed from DIST); it is bundle-ready. The README's commands (printed below) install,
build, test and certify it.

Exit codes: 0 written, 1 the build failed, 2 usage error or the directory is not empty.

Examples:
  octet-host new --lang python weather                   # inside a kit checkout
  octet-host new --lang go --sdk ~/octet/dist weather   # anywhere, from a release directory
  octet-host new --lang typescript --sdk ~/octet/dist weather ~/.octet/extensions/weather
`

func init() {
	register("new", verb{Summary: "scaffold an extension in Go, Python or TypeScript", Run: runNew})
}

func runNew(args []string, stdout, stderr io.Writer) int {
	fs := flagSet("new", newHelp, stderr)
	lang := fs.String("lang", "", "the language: "+strings.Join(scaffold.Languages, ", "))
	kit := fs.String("kit", "", "the kit checkout whose SDKs to use (default: found from DIR upwards, else from the working directory upwards)")
	sdk := fs.String("sdk", "", "a release directory (dist/ of 'go run mage.go dist') to install the SDK packages from")
	noBuild := fs.Bool("no-build", false, "do not compile TypeScript or Go after writing")
	if code := parse(fs, args, stdout); code >= 0 {
		return code
	}
	if *lang == "" || fs.NArg() < 1 || fs.NArg() > 2 {
		fmt.Fprintln(stderr, "octet-host new: want --lang LANGUAGE NAME [DIR]")
		return exitStartup
	}
	name := fs.Arg(0)
	dir := name
	if fs.NArg() == 2 {
		dir = fs.Arg(1)
	}
	if *kit == "" && *sdk == "" {
		*kit = scaffold.FindKit(filepath.Dir(dir))
	}
	if *kit == "" && *sdk == "" {
		// Run from inside a kit checkout (go run ./host/cmd/octet-host new ... /elsewhere):
		// that checkout's SDKs are the ones the author is working with.
		if wd, err := os.Getwd(); err == nil {
			*kit = scaffold.FindKit(wd)
		}
	}
	if *kit == "" && *sdk == "" {
		fmt.Fprintln(stderr, "octet-host new: not inside a kit checkout, so name the SDK release with --sdk DIST: a release directory written by 'go run mage.go dist' in a kit checkout (the SDK packages are not on the public registries yet); or --kit CHECKOUT")
		return exitStartup
	}
	if *sdk != "" {
		if fi, err := os.Stat(*sdk); err != nil || !fi.IsDir() {
			fmt.Fprintf(stderr, "octet-host new: --sdk %s is not a directory (write one with go run mage.go dist)\n", *sdk)
			return exitStartup
		}
		*kit = ""
	}
	o := scaffold.Options{Lang: *lang, Name: name, Dir: dir, Kit: *kit, SDK: *sdk}
	// The README's commands are printed below as the next steps; they must work when
	// pasted, so they invoke octet-host the way a new shell can find it.
	o.Host, o.HostElsewhere = selfCommand()
	res, err := scaffold.Generate(o)
	if err != nil {
		fmt.Fprintln(stderr, "octet-host new:", err)
		return exitStartup
	}
	fmt.Fprintf(stdout, "wrote %s extension %s in %s:\n", *lang, name, dir)
	for _, f := range res.Files {
		fmt.Fprintf(stdout, "  %s\n", f)
	}
	if !*noBuild {
		if err := scaffold.Build(o); err != nil {
			fmt.Fprintln(stderr, "octet-host new: build:", err)
			return exitFailed
		}
	}
	fmt.Fprintf(stdout, "next, in %s:\n", dir)
	for _, n := range res.Next {
		fmt.Fprintf(stdout, "  %s\n", n)
	}
	return exitOK
}
