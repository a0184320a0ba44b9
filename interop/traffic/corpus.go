package traffic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The kinds of JSON-RPC message.
const (
	request      = "request"
	notification = "notification"
	result       = "result"
	errorReply   = "error"
)

// message is one JSON-RPC message of the corpus, with what its exchange says about it.
type message struct {
	source string // the file under testdata: "gosdk/mrtr.txtar", "specdocs/draft.txt"
	where  string // where in the file: "client#3" (the third message of the client section), or "<page>:<line>"
	raw    []byte // the message as recorded
	kind   string // request, notification, result or error
	// from is who sent it, "client" or "server", when the exchange or the method says so; "" when
	// either could have (ping, cancellation, progress and tasks go both ways, and a response whose
	// request is not in the exchange).
	from   string
	method string // a request's or notification's method; a response's is the method of the request it answers, if known
	id     string // the id as compact JSON ("1", "\"abc\""), "" without one
}

func (m *message) name() string { return m.source + ":" + m.where }

// decodeEnvelope reads what kind of message raw is, its method and its id.
func (m *message) decodeEnvelope() error {
	var env map[string]json.RawMessage
	if err := json.Unmarshal(m.raw, &env); err != nil {
		return fmt.Errorf("%s: not a JSON object: %v", m.name(), err)
	}
	if id, ok := env["id"]; ok {
		var b bytes.Buffer
		if err := json.Compact(&b, id); err != nil {
			return err
		}
		m.id = b.String()
	}
	_, hasResult := env["result"]
	_, hasError := env["error"]
	switch method, hasMethod := env["method"]; {
	case hasMethod:
		if err := json.Unmarshal(method, &m.method); err != nil {
			return fmt.Errorf("%s: method: %v", m.name(), err)
		}
		m.kind = notification
		if m.id != "" {
			m.kind = request
		}
	case hasResult:
		m.kind = result
	case hasError:
		m.kind = errorReply
	default:
		return fmt.Errorf("%s: not a JSON-RPC message", m.name())
	}
	return nil
}

// loadTxtar reads a conformance archive of an SDK (sections "-- client --" and "-- server --"
// hold consecutive JSON values; other sections configure the SDK's test server) and pairs the
// responses with the requests they answer: a server response answers the earliest unanswered
// client request with its id; a client response answers the server's requests in order (the
// SDKs' harnesses give it the id of that request).
func loadTxtar(dir, file string) ([]*message, error) {
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return nil, err
	}
	var msgs []*message
	for _, sec := range txtarSections(data) {
		if sec.name != "client" && sec.name != "server" {
			continue
		}
		values, err := jsonValues(sec.data)
		if err != nil {
			return nil, fmt.Errorf("%s: section %s: %v", file, sec.name, err)
		}
		for i, v := range values {
			m := &message{source: filepath.Base(dir) + "/" + file, where: fmt.Sprintf("%s#%d", sec.name, i+1), raw: v, from: sec.name}
			if err := m.decodeEnvelope(); err != nil {
				return nil, err
			}
			msgs = append(msgs, m)
		}
	}
	var fromClient, fromServer []*message // requests not yet answered
	for _, m := range msgs {
		if m.kind == request && m.from == "client" {
			fromClient = append(fromClient, m)
		}
		if m.kind == request && m.from == "server" {
			fromServer = append(fromServer, m)
		}
	}
	for _, m := range msgs {
		if m.kind != result && m.kind != errorReply {
			continue
		}
		if m.from == "server" {
			if i := slices.IndexFunc(fromClient, func(r *message) bool { return r.id == m.id }); i >= 0 {
				m.method = fromClient[i].method
				fromClient = slices.Delete(fromClient, i, i+1)
			}
		} else if len(fromServer) > 0 {
			m.method = fromServer[0].method
			fromServer = fromServer[1:]
		}
	}
	return msgs, nil
}

type section struct {
	name string
	data []byte
}

// txtarSections splits a txtar archive (golang.org/x/tools/txtar's format: a comment, then
// files each starting with a "-- name --" line).
func txtarSections(data []byte) []section {
	var out []section
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		l := strings.TrimSpace(string(line))
		if name, ok := strings.CutPrefix(l, "-- "); ok && strings.HasSuffix(name, " --") {
			out = append(out, section{name: strings.TrimSuffix(name, " --")})
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].data = append(out[len(out)-1].data, line...)
		}
	}
	return out
}

// jsonValues splits consecutive JSON values, each exactly as written.
func jsonValues(data []byte) ([][]byte, error) {
	var out [][]byte
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, raw)
	}
}

// pageMethods names the method that a result shown without its request answers, where the page
// says it in words: the results on the tools page are "Example valid response for this tool".
var pageMethods = map[string]string{
	"server/tools.mdx": "tools/call",
}

// loadSpecDocs reads a file of the messages of the spec's documentation (written by
// internal/extractdocs: "-- <page>:<line> --" headers). A page is an exchange: a response answers
// the nearest request before it on the page with its id (or, when none is before it, the nearest
// after it), or the method pageMethods gives its page. Who sends a request or notification comes from the method tables (directions).
func loadSpecDocs(dir, file string, directions map[string]string) ([]*message, error) {
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return nil, err
	}
	var msgs []*message
	for _, sec := range txtarSections(data) {
		m := &message{source: filepath.Base(dir) + "/" + file, where: sec.name, raw: bytes.TrimSpace(sec.data)}
		if err := m.decodeEnvelope(); err != nil {
			return nil, err
		}
		if m.kind == request || m.kind == notification {
			m.from = directions[m.method]
		}
		msgs = append(msgs, m)
	}
	page := func(m *message) string { p, _, _ := strings.Cut(m.where, ":"); return p }
	for i, m := range msgs {
		if m.kind != result && m.kind != errorReply {
			continue
		}
		var req *message
		for j := i - 1; j >= 0 && page(msgs[j]) == page(m) && req == nil; j-- {
			if msgs[j].kind == request && msgs[j].id == m.id {
				req = msgs[j]
			}
		}
		for j := i + 1; j < len(msgs) && page(msgs[j]) == page(m) && req == nil; j++ {
			if msgs[j].kind == request && msgs[j].id == m.id {
				req = msgs[j]
			}
		}
		if req == nil && m.kind == result && pageMethods[page(m)] != "" {
			m.method, m.from = pageMethods[page(m)], "server"
		}
		if req != nil {
			m.method = req.method
			switch req.from {
			case "client":
				m.from = "server"
			case "server":
				m.from = "client"
			}
		}
	}
	return msgs, nil
}

// loadExamples reads the results among the spec's examples (schema/<version>/examples/<Type>/,
// the versions that have examples): a *ResultResponse example as it is, a *Result example as the
// result of a response with id 1. Its method is the one whose result the type is in a method
// table of any version (resultMethods); it is sent by the side that answers that method.
func loadExamples(dir string, resultMethods map[string]string, directions map[string]string) ([]*message, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var msgs []*message
	for _, f := range files {
		typ := filepath.Base(filepath.Dir(f))
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		resultType := typ
		switch {
		case strings.HasSuffix(typ, "ResultResponse"):
			resultType = strings.TrimSuffix(typ, "Response")
		case strings.HasSuffix(typ, "Result"):
			raw = append(append([]byte(`{"jsonrpc":"2.0","id":1,"result":`), bytes.TrimSpace(raw)...), '}')
		default:
			continue
		}
		m := &message{source: "examples/" + filepath.Base(filepath.Dir(dir)), where: typ + "/" + filepath.Base(f), raw: raw}
		if err := m.decodeEnvelope(); err != nil {
			return nil, err
		}
		if m.kind != result {
			continue // an error response's example
		}
		m.method = resultMethods[resultType]
		switch directions[m.method] {
		case "client":
			m.from = "server"
		case "server":
			m.from = "client"
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}
