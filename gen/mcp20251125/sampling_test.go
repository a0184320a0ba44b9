package mcp20251125

import (
	"errors"
	"testing"

	"github.com/mcpgen/mcpgen/gen/internal/samplingtest"
)

// TestSamplingRules runs the table of the sampling rules and of CheckCapabilities
// (internal/samplingtest) on this package.
func TestSamplingRules(t *testing.T) {
	samplingtest.Run(t, samplingtest.Package{
		Params:    func() samplingtest.Value { return new(CreateMessageRequestParams) },
		Result:    func() samplingtest.Value { return new(CreateMessageResult) },
		Request:   func() samplingtest.Value { return new(CreateMessageRequest) },
		Envelope:  `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":%s}`,
		Unmarshal: func(data []byte, v samplingtest.Value) error { return Unmarshal(data, v) },
		Marshal:   func(v samplingtest.Value) ([]byte, error) { return Marshal(v) },
		CheckCapabilities: func(params, client []byte) error {
			var p CreateMessageRequestParams
			if err := p.UnmarshalJSON(params); err != nil {
				return err
			}
			var c *ClientCapabilities
			if client != nil {
				c = new(ClientCapabilities)
				if err := c.UnmarshalJSON(client); err != nil {
					return err
				}
			}
			return p.CheckCapabilities(c)
		},
		Problems: func(err error) ([]samplingtest.Problem, int, bool) {
			var ve *ValidationError
			if !errors.As(err, &ve) {
				return nil, 0, false
			}
			var problems []samplingtest.Problem
			for _, p := range ve.Problems {
				problems = append(problems, samplingtest.Problem{Pointer: p.Pointer, Message: p.Message})
			}
			return problems, ve.Code, true
		},
	})
}
