package mrtr

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"
)

// The requestState format, version 2:
//
//	v2.<body>.<mac>
//
// body is the base64url (no padding) of the DEFLATE-compressed JSON of an envelope; mac is the
// base64url of HMAC-SHA256(key, "mcpgen/mrtr/v2." + body). The MAC is checked (in constant time)
// before anything of the body is read.
const (
	stateVersion = "v2"
	macContext   = "mcpgen/mrtr/v2."
	// maxInflateRatio bounds the decompressed envelope of a state: at most maxInflateRatio times
	// the state's length (and at most MaxStateBytes). Sealing keeps to it by compressing a very
	// repetitive envelope with Huffman coding only, which writes at least one bit per byte (at
	// most 6 bytes of JSON per byte of base64).
	maxInflateRatio = 8
	bindingContext  = "mcpgen/mrtr/v2/binding"
)

// envelope is what a requestState carries: the state's own fields, and the caller's body.
type envelope struct {
	// ID is random: it names this state (a ReplayGuard records it).
	ID string `json:"id"`
	// Expires is when the state lapses, in Unix milliseconds.
	Expires int64 `json:"exp"`
	// Principal and Request bind the state: hashes of the authenticated principal, and of the
	// method and salient parameters of the request that may present it.
	Principal string `json:"sub"`
	Request   string `json:"req"`
	// Body is the caller's JSON.
	Body json.RawMessage `json:"body"`
}

// States issues and opens authenticated, bounded, expiring requestStates. It is the one
// implementation of the state in this package: [Runner] uses it, and so does any other party that
// must carry its own data through a client between the round trips of a multi round-trip request
// (a proxy that samples on a server's behalf, say). See the package doc for what a state
// guarantees and what it costs.
//
// A States is configuration; it is safe for concurrent use (if its Guard is).
type States struct {
	// Key authenticates the states (HMAC-SHA256): at least MinKeyBytes random bytes, the same
	// for every instance of the server, and secret. Set Key or Keys, not both.
	Key []byte
	// Keys, instead of Key, is a key ring: its first key issues the states and each of its keys
	// opens them, so that the key can be rotated without refusing the states in flight (see
	// [KeyRing]).
	Keys *KeyRing
	// TTL is how long a state is valid after it is issued; 0 means DefaultTTL.
	TTL time.Duration
	// MaxStateBytes bounds a state, as issued and as accepted, and the JSON of its envelope (the
	// body and about 200 bytes); 0 means DefaultMaxStateBytes. A state also inflates to at most
	// 8 times its length: Issue compresses a very repetitive body less to keep to it.
	MaxStateBytes int
	// Guard, when set, makes every state single-use: Use refuses a state presented before
	// (ErrReplayedState). nil: a state may be used more than once within its TTL.
	Guard ReplayGuard
	// Now returns the time; nil means time.Now.
	Now func() time.Time
}

// A Binding says what a state belongs to: the principal, and the method and salient parameters of
// the request that may present it. A state is opened only with the Binding it was issued with.
type Binding struct {
	// Principal is the authenticated principal (e.g. the OAuth subject), "" if there is none.
	Principal string
	// Method is the request's method, e.g. "tools/call".
	Method string
	// Request holds the request's salient parameters, e.g. the tool name and
	// Canonical(arguments).
	Request string
}

// Opened is a state that [States.Open] accepted.
type Opened struct {
	// ID names the state; it is random, and new in every state issued.
	ID string
	// Expires is when the state lapses (to the millisecond).
	Expires time.Time
	// Body is the JSON given to Issue.
	Body []byte
}

// Issue seals body (the caller's JSON value) into a new state with a new id and an expiry TTL from
// now, bound to b. A state larger than MaxStateBytes is not issued: the error is a *StateError
// (ErrStateTooLarge, JSON-RPC -32603).
func (s *States) Issue(b Binding, body []byte) (string, error) {
	if err := s.check(); err != nil {
		return "", err
	}
	if !json.Valid(body) {
		return "", withCode(errors.New("mrtr: the body of a state must be JSON"), codeInternal, "the server's state does not encode")
	}
	id, err := newStateID()
	if err != nil {
		return "", withCode(err, codeInternal, err.Error())
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, body); err != nil {
		return "", withCode(err, codeInternal, err.Error())
	}
	key := s.ring().Keys[0]
	return seal(key, &envelope{
		ID:        id,
		Expires:   s.now().Add(s.ttl()).UnixMilli(),
		Principal: digest(key, "principal", b.Principal),
		Request:   digest(key, "request", b.Method, b.Request),
		Body:      compact.Bytes(),
	}, s.maxStateBytes())
}

// Open checks a state's size, form and MAC, then its expiry and binding, and returns its body. It
// does not consult the Guard: call [States.Use] right before acting on the state. Its errors are
// *StateError (JSON-RPC -32602) with the reason: ErrStateTooLarge, ErrMalformedState,
// ErrTamperedState, ErrExpiredState, ErrOtherPrincipal or ErrOtherRequest.
func (s *States) Open(state string, b Binding) (*Opened, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	e, key, err := openRing(s.ring(), state, s.maxStateBytes())
	if err != nil {
		return nil, err
	}
	o := &Opened{ID: e.ID, Expires: time.UnixMilli(e.Expires), Body: e.Body}
	switch {
	case s.expired(o):
		return nil, s.expiredErr(o)
	case !hmac.Equal([]byte(e.Principal), []byte(digest(key, "principal", b.Principal))):
		return nil, stateErr(ErrOtherPrincipal, codeInvalidParams, "requestState was issued to another principal")
	case !hmac.Equal([]byte(e.Request), []byte(digest(key, "request", b.Method, b.Request))):
		return nil, stateErr(ErrOtherRequest, codeInvalidParams, "requestState was issued for another request (method, tool or arguments differ)")
	}
	return o, nil
}

// Use marks an opened state used, right before the caller acts on it (runs tools, spends): it
// checks the expiry again, now, and records the state's id with the Guard, if any. A state
// presented before is refused (ErrReplayedState); a failing Guard gives an error with JSON-RPC
// -32603.
func (s *States) Use(ctx context.Context, o *Opened) error {
	return s.use(ctx, o, true)
}

// Check is Use without recording: it checks the expiry again and asks the Guard, if any, whether
// the state was used, and refuses it then (ErrReplayedState). A caller that answers a state
// without acting on it (the Runner asking again for a missing answer) calls Check, so that a
// state already used is not answered again.
func (s *States) Check(ctx context.Context, o *Opened) error {
	return s.use(ctx, o, false)
}

func (s *States) use(ctx context.Context, o *Opened, record bool) error {
	if o == nil {
		return withCode(errors.New("mrtr: Use of a nil state"), codeInternal, "the server is misconfigured")
	}
	if s.expired(o) {
		return s.expiredErr(o)
	}
	if s.Guard == nil {
		return nil
	}
	var used bool
	var err error
	if record {
		var first bool
		first, err = s.Guard.Use(ctx, o.ID, o.Expires)
		used = !first
	} else {
		used, err = s.Guard.Used(ctx, o.ID)
	}
	if err != nil {
		// Fail closed: a guard that cannot answer refuses the state. Whether it recorded the
		// state is unknown (a lost reply), so the client retries the same request later and,
		// if that is refused as replayed, starts the call over.
		return &StateError{Reason: ErrGuardUnavailable, Code: codeInternal, Cause: err,
			Message: "the replay guard could not answer, so requestState was not accepted; retry the same request later"}
	}
	if used {
		return stateErr(ErrReplayedState, codeInvalidParams, "requestState was already used; call again without requestState")
	}
	return nil
}

func (s *States) expired(o *Opened) bool {
	return Expired(s.now(), o.Expires)
}

// Expired reports whether a state that expires at exp has expired at now: from exp on (to the
// millisecond) it has. States and MemoryGuard compare the expiry this one way.
func Expired(now, exp time.Time) bool {
	return now.UnixMilli() >= exp.UnixMilli()
}

func (s *States) expiredErr(o *Opened) error {
	return stateErr(ErrExpiredState, codeInvalidParams, "requestState expired at %s (it is valid for %s); call again without requestState",
		o.Expires.UTC().Format(time.RFC3339), s.ttl())
}

func (s *States) check() error {
	switch {
	case s.Keys != nil && s.Key != nil:
		return withCode(errors.New("mrtr: both Key and Keys are set"), codeInternal, "the server is misconfigured")
	case s.Keys != nil:
		if err := s.Keys.check(); err != nil {
			return withCode(err, codeInternal, "the server is misconfigured")
		}
	case len(s.Key) < MinKeyBytes:
		return withCode(fmt.Errorf("mrtr: the key has %d bytes, fewer than %d", len(s.Key), MinKeyBytes), codeInternal, "the server is misconfigured")
	}
	return nil
}

// ring returns the keys of the states: Keys, or a ring of Key alone.
func (s *States) ring() *KeyRing {
	if s.Keys != nil {
		return s.Keys
	}
	return &KeyRing{Keys: [][]byte{s.Key}}
}

func (s *States) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *States) ttl() time.Duration {
	if s.TTL > 0 {
		return s.TTL
	}
	return DefaultTTL
}

func (s *States) maxStateBytes() int {
	if s.MaxStateBytes > 0 {
		return s.MaxStateBytes
	}
	return DefaultMaxStateBytes
}

// seal encodes and authenticates an envelope. Its JSON is at most maxBytes, and at most
// maxInflateRatio times the state.
func seal(key []byte, e *envelope, maxBytes int) (string, error) {
	data, err := json.Marshal(e)
	if err != nil {
		return "", withCode(err, codeInternal, "the server's state does not encode")
	}
	if len(data) > maxBytes {
		return "", stateErr(ErrStateTooLarge, codeInternal, "the conversation is too long to travel in requestState (%d bytes of JSON, more than %d)", len(data), maxBytes)
	}
	s, err := sealAt(key, data, flate.BestCompression)
	if err == nil && len(data) > maxInflateRatio*len(s) {
		// Too repetitive: a small state would carry a large conversation, which asking again
		// would send back. Huffman coding alone bounds the ratio.
		s, err = sealAt(key, data, flate.HuffmanOnly)
	}
	if err != nil {
		return "", withCode(err, codeInternal, "the server's state does not encode")
	}
	if len(s) > maxBytes {
		return "", stateErr(ErrStateTooLarge, codeInternal, "the conversation is too long to travel in requestState (%d bytes, more than %d)", len(s), maxBytes)
	}
	if len(data) > maxInflateRatio*len(s) {
		return "", stateErr(ErrStateTooLarge, codeInternal, "the conversation does not travel in requestState (%d bytes of JSON in %d bytes of state)", len(data), len(s))
	}
	return s, nil
}

// flateWriters keep the compressors of sealAt, by level, for the next state: a compressor is
// about a megabyte of tables, which a server issuing a state per round would otherwise allocate
// (and collect) every time. They are free lists rather than sync.Pools: a pool is emptied by
// every other garbage collection, which a server decoding JSON runs every few milliseconds with a
// small heap, so a lightly loaded instance (one of several behind a load balancer) would find it
// empty at almost every round, and allocate the megabyte again (and collect it sooner).
var flateWriters = map[int]*freeList[*flate.Writer]{flate.BestCompression: newFreeList[*flate.Writer](), flate.HuffmanOnly: newFreeList[*flate.Writer]()}

// flateReaders keep the decompressors of openRing (their 32 KB window and tables), for the same
// reason.
var flateReaders = newFreeList[io.ReadCloser]()

// A freeList keeps up to a few values for reuse, across garbage collections: GOMAXPROCS of them,
// at least 4 (so a process keeps at most that many compressors, a megabyte each, per level),
// enough for the states being sealed or opened at once, which is CPU work without waits. One
// beyond them is allocated, and dropped after.
type freeList[T any] struct{ c chan T }

func newFreeList[T any]() *freeList[T] {
	return &freeList[T]{c: make(chan T, max(4, runtime.GOMAXPROCS(0)))}
}

// get returns a kept value, or the zero value when none is.
func (l *freeList[T]) get() (v T) {
	select {
	case v = <-l.c:
	default:
	}
	return v
}

// put keeps v, unless the list is full.
func (l *freeList[T]) put(v T) {
	select {
	case l.c <- v:
	default:
	}
}

func sealAt(key, data []byte, level int) (string, error) {
	var buf bytes.Buffer
	list := flateWriters[level]
	w := list.get()
	if w == nil {
		var err error
		if w, err = flate.NewWriter(&buf, level); err != nil {
			return "", err
		}
	} else {
		w.Reset(&buf)
	}
	w.Write(data)
	err := w.Close()
	list.put(w)
	if err != nil {
		return "", err
	}
	body := base64.RawURLEncoding.EncodeToString(buf.Bytes())
	return stateVersion + "." + body + "." + base64.RawURLEncoding.EncodeToString(mac(key, body)), nil
}

func mac(key []byte, body string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(macContext))
	h.Write([]byte(body))
	return h.Sum(nil)
}

// open is openRing with a ring of one key.
func open(key []byte, s string, maxBytes int) (*envelope, error) {
	e, _, err := openRing(&KeyRing{Keys: [][]byte{key}}, s, maxBytes)
	return e, err
}

// openRing checks a requestState's size, form and MAC under the keys of ring, and decodes its
// envelope; it returns the key that authenticated it. Expiry and binding are the caller's to
// check.
func openRing(ring *KeyRing, s string, maxBytes int) (*envelope, []byte, error) {
	if len(s) > maxBytes {
		return nil, nil, stateErr(ErrStateTooLarge, codeInvalidParams, "requestState is %d bytes, more than the %d this server issues", len(s), maxBytes)
	}
	version, rest, ok := strings.Cut(s, ".")
	body, sum, ok2 := strings.Cut(rest, ".")
	if !ok || !ok2 || version != stateVersion {
		return nil, nil, stateErr(ErrMalformedState, codeInvalidParams, "requestState is not a state this server issued")
	}
	// The MAC is compared as the text the server wrote: base64 decoding alone skips CR and LF
	// (even Strict), which would let one state be presented in many spellings.
	got, err := base64.RawURLEncoding.Strict().DecodeString(sum)
	if err != nil {
		return nil, nil, stateErr(ErrTamperedState, codeInvalidParams, "requestState failed its integrity check: it was changed, or issued under another key")
	}
	authentic := func(key []byte) bool {
		want := mac(key, body)
		return hmac.Equal(got, want) && sum == base64.RawURLEncoding.EncodeToString(want)
	}
	key := ring.keyOf(authentic)
	if key == nil {
		for _, k := range ring.Retired {
			if authentic(k) {
				return nil, nil, stateErr(ErrRetiredKey, codeInvalidParams, "requestState was issued under a key this server has retired; call again without requestState")
			}
		}
		return nil, nil, stateErr(ErrTamperedState, codeInvalidParams, "requestState failed its integrity check: it was changed, or issued under another key")
	}
	compressed, err := base64.RawURLEncoding.Strict().DecodeString(body)
	if err != nil {
		return nil, nil, stateErr(ErrMalformedState, codeInvalidParams, "requestState does not decode: %v", err)
	}
	// What the state inflates to is bounded before it is read: at most maxBytes, and at most
	// maxInflateRatio times the state, as seal issues them.
	limit := min(maxBytes, maxInflateRatio*len(s))
	fr := flateReaders.get()
	if fr == nil {
		fr = flate.NewReader(bytes.NewReader(compressed))
	} else if err := fr.(flate.Resetter).Reset(bytes.NewReader(compressed), nil); err != nil {
		return nil, nil, withCode(err, codeInternal, "requestState: the decompressor does not reset")
	}
	data, err := io.ReadAll(io.LimitReader(fr, int64(limit)+1))
	flateReaders.put(fr)
	if err != nil {
		return nil, nil, stateErr(ErrMalformedState, codeInvalidParams, "requestState does not decode")
	}
	if len(data) > limit {
		return nil, nil, stateErr(ErrStateTooLarge, codeInvalidParams, "requestState inflates to more than the %d bytes this server issues", limit)
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	var e envelope
	if err := d.Decode(&e); err != nil {
		return nil, nil, stateErr(ErrMalformedState, codeInvalidParams, "requestState does not decode: %v", err)
	}
	if e.Body == nil {
		return nil, nil, stateErr(ErrMalformedState, codeInvalidParams, "requestState has no body")
	}
	return &e, key, nil
}

// digest authenticates the parts of a binding with a subkey of key, each part prefixed by its
// length so that no two lists of parts hash alike. Keyed, it lets no one who sees a state test
// guesses of the principal or of the request.
func digest(key []byte, parts ...string) string {
	sub := hmac.New(sha256.New, key)
	sub.Write([]byte(bindingContext))
	h := hmac.New(sha256.New, sub.Sum(nil))
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
