package mrtr

import (
	"bytes"
	"compress/flate"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// The requestState format, version 1:
//
//	v1.<body>.<mac>
//
// body is the base64url (no padding) of the DEFLATE-compressed JSON of a payload; mac is the
// base64url of HMAC-SHA256(key, "mcpgen/mrtr/v1." + body). The MAC is checked (in constant time)
// before anything of the body is read.
const (
	stateVersion = "v1"
	macContext   = "mcpgen/mrtr/v1."
	// inflateFactor bounds the decompressed payload: at most inflateFactor times the largest
	// requestState.
	inflateFactor = 16
)

// payload is what a requestState carries.
type payload struct {
	// ID is random: it names this state (a ReplayGuard records it).
	ID string `json:"id"`
	// Expires is when the state lapses, in Unix milliseconds.
	Expires int64 `json:"exp"`
	// Principal and Request bind the state: hashes of the authenticated principal, and of the
	// method and salient parameters of the request that may present it.
	Principal string `json:"sub"`
	Request   string `json:"req"`
	// Key is the key of the pending sampling request in inputRequests.
	Key string `json:"key"`
	// Conversation is the loop's snapshot: its id, the requests answered, and the next request
	// without its tools.
	Conversation string          `json:"conv"`
	Iterations   int             `json:"n"`
	Params       json.RawMessage `json:"params"`
}

// seal encodes and authenticates a payload.
func seal(key []byte, p *payload, maxBytes int) (string, error) {
	data, err := json.Marshal(p)
	if err != nil {
		return "", err
	}
	if len(data) > maxBytes*inflateFactor {
		return "", stateErr(ErrStateTooLarge, codeInternal, "the conversation is too long to travel in requestState (%d bytes of JSON, more than %d)", len(data), maxBytes*inflateFactor)
	}
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return "", err
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		return "", err
	}
	body := base64.RawURLEncoding.EncodeToString(buf.Bytes())
	s := stateVersion + "." + body + "." + base64.RawURLEncoding.EncodeToString(mac(key, body))
	if len(s) > maxBytes {
		return "", stateErr(ErrStateTooLarge, codeInternal, "the conversation is too long to travel in requestState (%d bytes, more than %d)", len(s), maxBytes)
	}
	return s, nil
}

func mac(key []byte, body string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(macContext))
	h.Write([]byte(body))
	return h.Sum(nil)
}

// open checks a requestState's size, form and MAC, and decodes its payload. Expiry and binding
// are the caller's to check.
func open(key []byte, s string, maxBytes int) (*payload, error) {
	if len(s) > maxBytes {
		return nil, stateErr(ErrStateTooLarge, codeInvalidParams, "requestState is %d bytes, more than the %d this server issues", len(s), maxBytes)
	}
	version, rest, ok := strings.Cut(s, ".")
	body, sum, ok2 := strings.Cut(rest, ".")
	if !ok || !ok2 || version != stateVersion {
		return nil, stateErr(ErrMalformedState, codeInvalidParams, "requestState is not a state this server issued")
	}
	// The MAC is compared as the text the server wrote: base64 decoding alone skips CR and LF
	// (even Strict), which would let one state be presented in many spellings.
	want := mac(key, body)
	got, err := base64.RawURLEncoding.Strict().DecodeString(sum)
	if err != nil || !hmac.Equal(got, want) || sum != base64.RawURLEncoding.EncodeToString(want) {
		return nil, stateErr(ErrTamperedState, codeInvalidParams, "requestState failed its integrity check: it was changed, or issued under another key")
	}
	compressed, err := base64.RawURLEncoding.Strict().DecodeString(body)
	if err != nil {
		return nil, stateErr(ErrMalformedState, codeInvalidParams, "requestState does not decode: %v", err)
	}
	r := io.LimitReader(flate.NewReader(bytes.NewReader(compressed)), int64(maxBytes*inflateFactor)+1)
	data, err := io.ReadAll(r)
	if err != nil || len(data) > maxBytes*inflateFactor {
		return nil, stateErr(ErrMalformedState, codeInvalidParams, "requestState does not decode")
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	var p payload
	if err := d.Decode(&p); err != nil {
		return nil, stateErr(ErrMalformedState, codeInvalidParams, "requestState does not decode: %v", err)
	}
	return &p, nil
}

// digest hashes the parts of a binding, each prefixed by its length so that no two lists of
// parts hash alike.
func digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:", len(p))
		h.Write([]byte(p))
	}
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

func newStateID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

func millis(t time.Time) int64 { return t.UnixMilli() }
