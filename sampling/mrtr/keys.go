package mrtr

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// A KeyRing holds the keys of a server's requestStates, so that the key can be rotated without
// refusing the states in flight: Keys[0] issues every new state, and every key of Keys opens the
// states issued under it until they expire. A state issued under one of the Retired keys is
// refused with ErrRetiredKey (reason "retiredKey"), which tells its client to start the call
// over, rather than as tampered.
//
// Every instance of a server holds the same ring. Rotating the key is three steps, each rolled
// out to every instance before the next begins (see the package doc, "Rotating the key"):
//
//  1. add: the new key goes second (Keys[1]); the old one still issues. Every instance can now
//     open the states the new key will issue.
//  2. promote: the new key goes first; the old one second. New states are the new key's; the old
//     key's states in flight are still accepted.
//  3. retire: once the TTL (plus the guard's grace) has passed since the promotion reached every
//     instance, every state of the old key has expired: move it to Retired (or drop it).
//
// A key that leaked is retired at once, skipping the wait: the states in flight under it are
// refused (retiredKey) and their calls start over.
//
// Opening a state computes its MAC under each key until one matches (Keys, then Retired): a
// state costs one MAC in the steady state, and a tampered one a MAC per key of the ring.
type KeyRing struct {
	// Keys open states; Keys[0] issues them. Each is at least MinKeyBytes random bytes.
	Keys [][]byte
	// Retired keys open nothing: a state that one of them authenticates is refused
	// (ErrRetiredKey).
	Retired [][]byte
}

// ParseKeyRing reads a key ring from text: one key per line (or per comma-separated entry),
// hex-encoded, at least MinKeyBytes bytes; the first issues, the others still open. An entry
// "retired <hex>" is a retired key. Blank entries and comments (from # to the end of the line)
// are skipped. The errors name the line, never a key.
func ParseKeyRing(text string) (*KeyRing, error) {
	ring := &KeyRing{}
	for n, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, "#")
		for entry := range strings.SplitSeq(line, ",") {
			entry = strings.TrimSpace(entry)
			if entry == "" {
				continue
			}
			retired := false
			if rest, ok := strings.CutPrefix(entry, "retired"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
				retired, entry = true, strings.TrimSpace(rest)
			}
			key, err := hex.DecodeString(entry)
			if err != nil {
				return nil, fmt.Errorf("mrtr: key ring, line %d: not a hex-encoded key", n+1)
			}
			if len(key) < MinKeyBytes {
				return nil, fmt.Errorf("mrtr: key ring, line %d: a key of %d bytes, fewer than %d", n+1, len(key), MinKeyBytes)
			}
			if retired {
				ring.Retired = append(ring.Retired, key)
			} else {
				ring.Keys = append(ring.Keys, key)
			}
		}
	}
	if err := ring.check(); err != nil {
		return nil, err
	}
	return ring, nil
}

// LoadKeyRing reads a key ring from a file, as ParseKeyRing does. The file holds the keys that
// seal every state: on Unix, a file that its group or others may read or write is refused, with
// the chmod that fixes it (whoever reads a key can forge states that every instance accepts), and
// so is a file of another user's (one that root reads, planted by that user, who knows its keys).
func LoadKeyRing(path string) (*KeyRing, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mrtr: key ring: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("mrtr: key ring: %w", err)
	}
	if err := private(path, info); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("mrtr: key ring: %w", err)
	}
	ring, err := ParseKeyRing(string(data))
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	return ring, nil
}

// KeyRingFromEnv reads a key ring from the environment variable name, as ParseKeyRing does (the
// keys separated by newlines or commas: "<new>,<old>,retired <older>").
func KeyRingFromEnv(name string) (*KeyRing, error) {
	text, ok := os.LookupEnv(name)
	if !ok {
		return nil, fmt.Errorf("mrtr: key ring: %s is not set", name)
	}
	ring, err := ParseKeyRing(text)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, name)
	}
	return ring, nil
}

// check reports a ring that cannot serve: no key to issue with, a short key, a key twice.
func (r *KeyRing) check() error {
	if len(r.Keys) == 0 {
		return errors.New("mrtr: the key ring has no key to issue states with")
	}
	all := append(append([][]byte{}, r.Keys...), r.Retired...)
	for i, k := range all {
		if len(k) < MinKeyBytes {
			return fmt.Errorf("mrtr: key %d of the ring has %d bytes, fewer than %d", i+1, len(k), MinKeyBytes)
		}
		for _, other := range all[:i] {
			if bytes.Equal(k, other) {
				return fmt.Errorf("mrtr: key %d of the ring is there twice", i+1)
			}
		}
	}
	return nil
}

// keyOf returns the first key of Keys that authentic accepts, nil if none does.
func (r *KeyRing) keyOf(authentic func(key []byte) bool) []byte {
	for _, k := range r.Keys {
		if authentic(k) {
			return k
		}
	}
	return nil
}
