package services

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// checkPresentationURL enforces the presentation URL rules: absolute
// http(s), a host, no credentials, and nothing that points at the user's
// own machine or network (localhost, .local, private, loopback, link-local,
// unspecified or multicast IP literals). Frontends open these only after a
// click, but a click must never reach a local service.
func checkPresentationURL(raw string) error {
	if len(raw) > 2048 {
		return fmt.Errorf("is %d bytes; the limit is 2048", len(raw))
	}
	if hasControl(raw, false) || strings.ContainsAny(raw, " \\") {
		return fmt.Errorf("contains spaces, backslashes or control characters")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("is not a valid URL: %v", err)
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return fmt.Errorf("scheme %q is not http or https", u.Scheme)
	}
	if u.Opaque != "" || u.Host == "" {
		return fmt.Errorf("must be an absolute URL with a host")
	}
	if u.User != nil {
		return fmt.Errorf("must not carry credentials")
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return fmt.Errorf("must be an absolute URL with a host")
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || host == "local" || strings.HasSuffix(host, ".local") {
		return fmt.Errorf("host %q is local", host)
	}
	if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil {
		switch {
		case ip.IsLoopback():
			return fmt.Errorf("host %s is a loopback address", ip)
		case ip.IsPrivate():
			return fmt.Errorf("host %s is a private address", ip)
		case ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast():
			return fmt.Errorf("host %s is a link-local address", ip)
		case ip.IsUnspecified():
			return fmt.Errorf("host %s is the unspecified address", ip)
		case ip.IsMulticast(), ip.IsInterfaceLocalMulticast():
			return fmt.Errorf("host %s is a multicast address", ip)
		}
		return nil
	}
	// Browsers read "127.1", "2130706433" or "0x7f.1" as IPv4 addresses;
	// a last label that is numeric is never a real domain, so refuse it
	// rather than reimplementing those parsers.
	labels := strings.Split(host, ".")
	last := labels[len(labels)-1]
	if last != "" && (strings.Trim(last, "0123456789") == "" || strings.HasPrefix(last, "0x")) {
		return fmt.Errorf("host %q is a non-canonical IP address", host)
	}
	return nil
}
