// Package conformance is the one protocol suite every extension is certified with,
// whatever language it is written in.
//
// A Check is a named, tiered probe with a requirement reference. Each check starts a
// fresh extension process through a raw-wire Session (frames are written and read by
// hand, so a check can send an oversized line, flood the reader or watch for stray
// stdout), performs the initialize handshake itself and answers the extension's
// reverse requests with the reference host's services router (host/services), scripted
// by services_script.go (services.go). Checks that need
// the fixture tools of docs/design/fixture.md apply only to an extension that
// contributes them; the generic ones apply to every extension.
//
// Files, one concern each: check.go (the Check type, tiers, the registry), session.go
// and frames.go (the raw-wire process session), handshake.go (initialize and its
// validation), services.go (the router in front of which requests are recorded and
// refusals injected), services_script.go (the script), runner.go (running checks into a
// Report), report.go and render*.go (reports in text, JSON and as a matrix),
// extension.go (finding and loading extensions), checks_*.go (the checks themselves).
package conformance
