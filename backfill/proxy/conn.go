package proxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

// DefaultMaxMessageBytes is the largest message the proxy reads when [Proxy.MaxMessageBytes] is
// zero: 16 MiB.
const DefaultMaxMessageBytes = 16 << 20

// A Conn carries whole JSON-RPC messages between the proxy and the server. [NewStreamConn] makes
// one of a server's stdin and stdout (newline-delimited JSON, the stdio transport), and
// [NewHTTPConn] one of a remote server's Streamable HTTP endpoint.
type Conn interface {
	// Read returns the server's next message, without its delimiter. It returns io.EOF when the
	// server's output ends, and a *[MessageTooLargeError] (after which it may be called again)
	// for a message over the bound.
	Read(ctx context.Context) ([]byte, error)
	// Write sends one message to the server. It may be called concurrently.
	Write(ctx context.Context, msg []byte) error
	// Close ends what the proxy sends: on stdio it closes the server's input, over HTTP it ends
	// the session. It unblocks a Write in progress.
	Close() error
}

// A MessageTooLargeError is a message over the bound, which was read to its end and dropped.
// Head is its first bytes, enough to name its id and method when they come first.
type MessageTooLargeError struct {
	Limit int
	Head  []byte
}

func (e *MessageTooLargeError) Error() string {
	return fmt.Sprintf("a message larger than %d bytes was dropped", e.Limit)
}

// headBytes is how much of a dropped message is kept to name it.
const headBytes = 4 << 10

// lineReader reads newline-delimited messages of at most max bytes.
type lineReader struct {
	br  *bufio.Reader
	max int
}

func newLineReader(r io.Reader, max int) *lineReader {
	if max <= 0 {
		max = DefaultMaxMessageBytes
	}
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its newline (a blank line is returned empty), io.EOF at the
// end, or a *MessageTooLargeError for a line over the bound, which it skips. It never holds more
// than the bound (and the reader's buffer) in memory.
func (l *lineReader) next() ([]byte, error) {
	var line []byte
	tooLarge := false
	var head []byte
	for {
		frag, err := l.br.ReadSlice('\n')
		if !tooLarge {
			if len(line)+len(frag) > l.max+1 { // +1: the newline is not counted
				tooLarge = true
				head = append(line[:min(len(line), headBytes):min(len(line), headBytes)], frag[:min(len(frag), headBytes)]...)
				head = head[:min(len(head), headBytes)]
				line = nil
			} else {
				line = append(line, frag...)
			}
		}
		switch {
		case err == nil:
			if tooLarge {
				return nil, &MessageTooLargeError{Limit: l.max, Head: head}
			}
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF:
			if tooLarge {
				return nil, &MessageTooLargeError{Limit: l.max, Head: head}
			}
			if len(line) > 0 {
				return line, nil
			}
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}

// StreamConn is a [Conn] over a server's output and input streams, one message a line.
type StreamConn struct {
	lr     *lineReader
	mu     sync.Mutex // serializes writes
	w      io.WriteCloser
	closed atomic.Bool
	closer sync.Once
}

// NewStreamConn returns a Conn reading the server's messages from r (its stdout) and writing to
// w (its stdin), with messages of at most maxBytes (0: [DefaultMaxMessageBytes]).
func NewStreamConn(r io.Reader, w io.WriteCloser, maxBytes int) *StreamConn {
	return &StreamConn{lr: newLineReader(r, maxBytes), w: w}
}

// Read implements [Conn]. Blank lines are skipped.
func (c *StreamConn) Read(ctx context.Context) ([]byte, error) {
	for {
		line, err := c.lr.next()
		if err != nil || len(bytes.TrimSpace(line)) > 0 {
			return line, err
		}
	}
}

// errClosed is a write to a server whose input the proxy closed.
var errClosed = errors.New("the server's input is closed")

// Write implements [Conn]: it writes msg and a newline.
func (c *StreamConn) Write(ctx context.Context, msg []byte) error {
	if c.closed.Load() {
		return errClosed
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed.Load() {
		return errClosed
	}
	buf := make([]byte, 0, len(msg)+1)
	buf = append(append(buf, msg...), '\n')
	_, err := c.w.Write(buf)
	return err
}

// Close implements [Conn]: it closes the server's input. It does not wait for a Write in
// progress, which the close unblocks when w is a pipe (an *os.File or an io.Pipe).
func (c *StreamConn) Close() error {
	var err error
	c.closer.Do(func() {
		c.closed.Store(true)
		err = c.w.Close()
	})
	return err
}

// envelope names a message from its first members: its id and method, when they come before
// anything that does not parse (a message cut short still names them if they lead).
func envelope(head []byte) (id json.RawMessage, method string) {
	d := json.NewDecoder(bytes.NewReader(head))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, ""
	}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return id, method
		}
		name, _ := t.(string)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return id, method
		}
		switch name {
		case "id":
			id = v
		case "method":
			json.Unmarshal(v, &method)
		}
	}
	return id, method
}
