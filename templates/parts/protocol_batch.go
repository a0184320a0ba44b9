//go:build ignore

//mcpgen:protocol
//mcpgen:requires JSONRPCBatchRequest RequestId

package parts

// The JSON-RPC batch of the versions that have one (2025-03-26): DecodeClientMessage and
// DecodeServerMessage decode an array as a MessageBatch.

// MessageBatch is a JSON-RPC batch: an array of messages, each decoded as its own message is.
type MessageBatch []Message

func (MessageBatch) isMessage() {}

// GetID returns nil: a batch has no id of its own.
func (MessageBatch) GetID() RequestID {
	return nil
}

// GetMethod returns "": a batch has no method of its own.
func (MessageBatch) GetMethod() string {
	return ""
}

// Validate reports every rule of the schema that the value breaks, as a *[ValidationError], or
// returns nil.
func (v MessageBatch) Validate() error {
	var c validator
	for i, m := range v {
		if err := m.Validate(); err != nil {
			c.at(i)
			c.report("%v", err)
			c.out()
		}
	}
	return c.messageErr()
}

// MarshalJSON implements [json.Marshaler].
func (v MessageBatch) MarshalJSON() ([]byte, error) {
	b := []byte{'['}
	for i, m := range v {
		if i > 0 {
			b = append(b, ',')
		}
		mb, err := m.MarshalJSON()
		if err != nil {
			return nil, err
		}
		b = append(b, mb...)
	}
	return append(b, ']'), nil
}
