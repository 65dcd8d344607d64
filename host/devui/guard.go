package devui

import (
	"crypto/subtle"
	"fmt"
	"net/http"
	"strings"
)

// The inspector can start tool calls, run commands and answer confirmations, so every
// request must come from the page this process printed, in the user's own browser:
//
//   - it listens on 127.0.0.1 only, on a port the OS picks unless --port names one;
//   - every request carries the one-time token (query "token", or the X-Octet-Token
//     header the page sends on fetches); the event stream too, since EventSource cannot
//     set headers, it takes the query form;
//   - Host must be this listener's own address (127.0.0.1:PORT or localhost:PORT): a
//     name that resolves to 127.0.0.1 by DNS rebinding carries its own Host and is
//     refused before the token is even compared;
//   - Origin, when the browser sends one, must be this page's own origin, and
//     Sec-Fetch-Site must not say cross-site or same-site: another page (another site,
//     or another port on localhost) cannot drive the inspector;
//   - no CORS headers are ever sent, so a cross-origin script cannot read an answer
//     even where a request slipped through, and preflights are refused.

// TokenHeader carries the token on the page's fetches.
const TokenHeader = "X-Octet-Token"

// refusal is why guard refused a request (the text the client gets).
func (s *Server) refusal(r *http.Request) (int, string) {
	if !s.ownHost(r.Host) {
		return http.StatusForbidden, fmt.Sprintf("Host %q is not this inspector's address %s (DNS rebinding is refused)", r.Host, s.addr)
	}
	if o := r.Header.Get("Origin"); o != "" && !s.ownOrigin(o) {
		return http.StatusForbidden, fmt.Sprintf("Origin %q is not this inspector's page (cross-site requests are refused)", o)
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "cross-site", "same-site":
		return http.StatusForbidden, "Sec-Fetch-Site says the request comes from another site (cross-site requests are refused)"
	}
	if r.Method == http.MethodOptions {
		return http.StatusMethodNotAllowed, "no CORS: preflight requests are refused"
	}
	tok := r.Header.Get(TokenHeader)
	if tok == "" {
		tok = r.URL.Query().Get("token")
	}
	if tok == "" {
		return http.StatusUnauthorized, "the inspector's token is missing: open the URL octet-host dev printed"
	}
	if subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) != 1 {
		return http.StatusUnauthorized, "the token is wrong: open the URL octet-host dev printed"
	}
	return 0, ""
}

func (s *Server) ownHost(host string) bool {
	port := s.port()
	return host == "127.0.0.1:"+port || strings.EqualFold(host, "localhost:"+port)
}

func (s *Server) ownOrigin(origin string) bool {
	port := s.port()
	return origin == "http://127.0.0.1:"+port || strings.EqualFold(origin, "http://localhost:"+port)
}

// guard refuses what refusal names and sets the headers every answer carries: no caching
// (the token is in the URL), no referrer (it must not leak to a link's target), no
// framing, a content security policy that allows only this origin's script and style.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		if code, msg := s.refusal(r); code != 0 {
			http.Error(w, msg, code)
			return
		}
		next.ServeHTTP(w, r)
	})
}
