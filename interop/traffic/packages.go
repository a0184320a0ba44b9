package traffic

import (
	"encoding/json"
	"reflect"

	"github.com/mcpgen/mcpgen/gen/mcp20241105"
	"github.com/mcpgen/mcpgen/gen/mcp20250326"
	"github.com/mcpgen/mcpgen/gen/mcp20250618"
	"github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/gen/mcpdraft"
)

// genPackage is what the test needs of one package of gen/: its two message decoders, its method
// table and its Unknown message types. The packages share no types, so each has a block below,
// the same text with the package name changed.
type genPackage struct {
	version string
	// decode decodes what side ("client" or "server") sends; pending answers with the method of a
	// request from its id as compact JSON.
	decode func(side string, data []byte, pending func(id string) (string, bool)) (any, error)
	// generic decodes any JSON-RPC message with UnmarshalJSONRPCMessage, which types a result by
	// its members alone.
	generic func(data []byte) (any, error)
	lookup  func(method string) (methodInfo, bool)
	methods []string                // the methods of the table
	unknown map[string]reflect.Type // "client request", "server notification", ... -> *UnknownClientRequest, ...
}

// methodInfo is the part of a package's MethodInfo that the test uses.
type methodInfo struct {
	message                        reflect.Type
	results                        []reflect.Type
	fromClient, fromServer, notify bool
}

// idJSON returns a request id as compact JSON.
func idJSON(id any) string {
	b, _ := json.Marshal(id)
	return string(b)
}

var packages = []genPackage{
	{
		version: mcp20241105.SchemaVersion,
		generic: func(data []byte) (any, error) { return mcp20241105.UnmarshalJSONRPCMessage(data) },
		decode: func(side string, data []byte, pending func(string) (string, bool)) (any, error) {
			p := func(id mcp20241105.RequestID) (string, bool) { return pending(idJSON(id)) }
			if side == "server" {
				return mcp20241105.DecodeServerMessage(data, p)
			}
			return mcp20241105.DecodeClientMessage(data, p)
		},
		methods: func() (out []string) {
			for _, m := range mcp20241105.Methods {
				out = append(out, m.Method)
			}
			return out
		}(),
		lookup: func(method string) (methodInfo, bool) {
			i, ok := mcp20241105.LookupMethod(method)
			return methodInfo{i.Message, i.Results, i.FromClient, i.FromServer, i.Notification}, ok
		},
		unknown: map[string]reflect.Type{
			"client request":      reflect.TypeFor[*mcp20241105.UnknownClientRequest](),
			"server request":      reflect.TypeFor[*mcp20241105.UnknownServerRequest](),
			"client notification": reflect.TypeFor[*mcp20241105.UnknownClientNotification](),
			"server notification": reflect.TypeFor[*mcp20241105.UnknownServerNotification](),
		},
	},
	{
		version: mcp20250326.SchemaVersion,
		generic: func(data []byte) (any, error) { return mcp20250326.UnmarshalJSONRPCMessage(data) },
		decode: func(side string, data []byte, pending func(string) (string, bool)) (any, error) {
			p := func(id mcp20250326.RequestID) (string, bool) { return pending(idJSON(id)) }
			if side == "server" {
				return mcp20250326.DecodeServerMessage(data, p)
			}
			return mcp20250326.DecodeClientMessage(data, p)
		},
		methods: func() (out []string) {
			for _, m := range mcp20250326.Methods {
				out = append(out, m.Method)
			}
			return out
		}(),
		lookup: func(method string) (methodInfo, bool) {
			i, ok := mcp20250326.LookupMethod(method)
			return methodInfo{i.Message, i.Results, i.FromClient, i.FromServer, i.Notification}, ok
		},
		unknown: map[string]reflect.Type{
			"client request":      reflect.TypeFor[*mcp20250326.UnknownClientRequest](),
			"server request":      reflect.TypeFor[*mcp20250326.UnknownServerRequest](),
			"client notification": reflect.TypeFor[*mcp20250326.UnknownClientNotification](),
			"server notification": reflect.TypeFor[*mcp20250326.UnknownServerNotification](),
		},
	},
	{
		version: mcp20250618.SchemaVersion,
		generic: func(data []byte) (any, error) { return mcp20250618.UnmarshalJSONRPCMessage(data) },
		decode: func(side string, data []byte, pending func(string) (string, bool)) (any, error) {
			p := func(id mcp20250618.RequestID) (string, bool) { return pending(idJSON(id)) }
			if side == "server" {
				return mcp20250618.DecodeServerMessage(data, p)
			}
			return mcp20250618.DecodeClientMessage(data, p)
		},
		methods: func() (out []string) {
			for _, m := range mcp20250618.Methods {
				out = append(out, m.Method)
			}
			return out
		}(),
		lookup: func(method string) (methodInfo, bool) {
			i, ok := mcp20250618.LookupMethod(method)
			return methodInfo{i.Message, i.Results, i.FromClient, i.FromServer, i.Notification}, ok
		},
		unknown: map[string]reflect.Type{
			"client request":      reflect.TypeFor[*mcp20250618.UnknownClientRequest](),
			"server request":      reflect.TypeFor[*mcp20250618.UnknownServerRequest](),
			"client notification": reflect.TypeFor[*mcp20250618.UnknownClientNotification](),
			"server notification": reflect.TypeFor[*mcp20250618.UnknownServerNotification](),
		},
	},
	{
		version: mcp20251125.SchemaVersion,
		generic: func(data []byte) (any, error) { return mcp20251125.UnmarshalJSONRPCMessage(data) },
		decode: func(side string, data []byte, pending func(string) (string, bool)) (any, error) {
			p := func(id mcp20251125.RequestID) (string, bool) { return pending(idJSON(id)) }
			if side == "server" {
				return mcp20251125.DecodeServerMessage(data, p)
			}
			return mcp20251125.DecodeClientMessage(data, p)
		},
		methods: func() (out []string) {
			for _, m := range mcp20251125.Methods {
				out = append(out, m.Method)
			}
			return out
		}(),
		lookup: func(method string) (methodInfo, bool) {
			i, ok := mcp20251125.LookupMethod(method)
			return methodInfo{i.Message, i.Results, i.FromClient, i.FromServer, i.Notification}, ok
		},
		unknown: map[string]reflect.Type{
			"client request":      reflect.TypeFor[*mcp20251125.UnknownClientRequest](),
			"server request":      reflect.TypeFor[*mcp20251125.UnknownServerRequest](),
			"client notification": reflect.TypeFor[*mcp20251125.UnknownClientNotification](),
			"server notification": reflect.TypeFor[*mcp20251125.UnknownServerNotification](),
		},
	},
	{
		version: mcp20260728.SchemaVersion,
		generic: func(data []byte) (any, error) { return mcp20260728.UnmarshalJSONRPCMessage(data) },
		decode: func(side string, data []byte, pending func(string) (string, bool)) (any, error) {
			p := func(id mcp20260728.RequestID) (string, bool) { return pending(idJSON(id)) }
			if side == "server" {
				return mcp20260728.DecodeServerMessage(data, p)
			}
			return mcp20260728.DecodeClientMessage(data, p)
		},
		methods: func() (out []string) {
			for _, m := range mcp20260728.Methods {
				out = append(out, m.Method)
			}
			return out
		}(),
		lookup: func(method string) (methodInfo, bool) {
			i, ok := mcp20260728.LookupMethod(method)
			return methodInfo{i.Message, i.Results, i.FromClient, i.FromServer, i.Notification}, ok
		},
		unknown: map[string]reflect.Type{
			"client request":      reflect.TypeFor[*mcp20260728.UnknownClientRequest](),
			"server request":      reflect.TypeFor[*mcp20260728.UnknownServerRequest](),
			"client notification": reflect.TypeFor[*mcp20260728.UnknownClientNotification](),
			"server notification": reflect.TypeFor[*mcp20260728.UnknownServerNotification](),
		},
	},
	{
		version: mcpdraft.SchemaVersion,
		generic: func(data []byte) (any, error) { return mcpdraft.UnmarshalJSONRPCMessage(data) },
		decode: func(side string, data []byte, pending func(string) (string, bool)) (any, error) {
			p := func(id mcpdraft.RequestID) (string, bool) { return pending(idJSON(id)) }
			if side == "server" {
				return mcpdraft.DecodeServerMessage(data, p)
			}
			return mcpdraft.DecodeClientMessage(data, p)
		},
		methods: func() (out []string) {
			for _, m := range mcpdraft.Methods {
				out = append(out, m.Method)
			}
			return out
		}(),
		lookup: func(method string) (methodInfo, bool) {
			i, ok := mcpdraft.LookupMethod(method)
			return methodInfo{i.Message, i.Results, i.FromClient, i.FromServer, i.Notification}, ok
		},
		unknown: map[string]reflect.Type{
			"client request":      reflect.TypeFor[*mcpdraft.UnknownClientRequest](),
			"server request":      reflect.TypeFor[*mcpdraft.UnknownServerRequest](),
			"client notification": reflect.TypeFor[*mcpdraft.UnknownClientNotification](),
			"server notification": reflect.TypeFor[*mcpdraft.UnknownServerNotification](),
		},
	},
}
