package gateway

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
)

// The gateway runs the user's extensions with the user's authority, so over HTTP every
// request must come from a client the user gave the token to, the model octet-host dev's
// inspector follows:
//
//   - it listens on a loopback address only (the command refuses any other);
//   - Host must be the listener's own address (127.0.0.1:PORT, [::1]:PORT or
//     localhost:PORT): a name that resolves to loopback by DNS rebinding carries its own
//     Host and is refused (403);
//   - Origin, when sent (browsers send it), must be the listener's own origin or one the
//     operator allowed; any other, and the opaque "null" origin, is refused (403), as the
//     MCP transport specification requires;
//   - Authorization must be "Bearer TOKEN", compared in constant time (401 otherwise,
//     with WWW-Authenticate: Bearer);
//   - no CORS headers are sent, so a page elsewhere cannot read an answer.

// HTTPGuard checks every request to the gateway's HTTP endpoint.
type HTTPGuard struct {
	Token string
	// Addr is the listener's address (host:port) whose Host and Origin are its own.
	Addr string
	// AllowOrigins are further origins allowed (exactly, e.g. "http://localhost:6274").
	AllowOrigins []string
}

// NewToken is a fresh bearer token: 32 random bytes, hex.
func NewToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// TokenFrom is the token the operator named: the first line of file, or the value of
// the environment variable env; "" when neither is named.
func TokenFrom(file, env string) (string, error) {
	switch {
	case file != "" && env != "":
		return "", fmt.Errorf("--token-file and --token-env both name a token; choose one")
	case file != "":
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("--token-file: %v", err)
		}
		tok, _, _ := strings.Cut(string(b), "\n")
		if tok = strings.TrimSpace(tok); len(tok) < 16 {
			return "", fmt.Errorf("--token-file %s: the token must be at least 16 characters", file)
		}
		return tok, nil
	case env != "":
		tok := strings.TrimSpace(os.Getenv(env))
		if len(tok) < 16 {
			return "", fmt.Errorf("--token-env %s: the variable must hold a token of at least 16 characters", env)
		}
		return tok, nil
	}
	return "", nil
}

// refusal is the status and message of a request the guard refuses, or 0.
func (g *HTTPGuard) refusal(r *http.Request) (int, string) {
	if !g.ownHost(r.Host) {
		return http.StatusForbidden, fmt.Sprintf("Host %q is not this gateway's address %s (DNS rebinding is refused)", r.Host, g.Addr)
	}
	if o, sent := r.Header["Origin"]; sent && (len(o) != 1 || !g.allowedOrigin(o[0])) {
		return http.StatusForbidden, fmt.Sprintf("Origin %q is not allowed (start the gateway with --allow-origin to allow one)", strings.Join(o, ", "))
	}
	auth := r.Header.Get("Authorization")
	scheme, tok, _ := strings.Cut(auth, " ")
	if auth == "" || !strings.EqualFold(scheme, "Bearer") {
		return http.StatusUnauthorized, "a bearer token is required (Authorization: Bearer TOKEN; the gateway printed it at start, or read it from --token-file / --token-env)"
	}
	if subtle.ConstantTimeCompare([]byte(strings.TrimSpace(tok)), []byte(g.Token)) != 1 {
		return http.StatusUnauthorized, "the bearer token is wrong"
	}
	return 0, ""
}

func (g *HTTPGuard) port() string {
	_, p, _ := net.SplitHostPort(g.Addr)
	return p
}

func (g *HTTPGuard) ownHost(host string) bool {
	p := g.port()
	return host == "127.0.0.1:"+p || host == "[::1]:"+p || strings.EqualFold(host, "localhost:"+p) || host == g.Addr
}

func (g *HTTPGuard) allowedOrigin(o string) bool {
	p := g.port()
	if o == "http://127.0.0.1:"+p || o == "http://[::1]:"+p || strings.EqualFold(o, "http://localhost:"+p) {
		return true
	}
	for _, a := range g.AllowOrigins {
		if o == a && o != "null" {
			return true
		}
	}
	return false
}

// Wrap answers a refused request itself and passes the others to next.
func (g *HTTPGuard) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if code, msg := g.refusal(r); code != 0 {
			if code == http.StatusUnauthorized {
				w.Header().Set("WWW-Authenticate", `Bearer realm="octet-mcp-gateway"`)
			}
			http.Error(w, msg, code)
			return
		}
		next.ServeHTTP(w, r)
	})
}
