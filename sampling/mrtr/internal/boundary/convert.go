// Package boundary holds what the flavours of package mrtr (one per protocol version) share at
// the boundary between a version's types and the loop's: conversion through JSON (the sampling
// types of the versions from 2025-11-25 on have the same JSON; members one version does not know
// are kept in the other's Extra), the lookup of an inputResponse, and canonical JSON.
package boundary

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	v1125 "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
)

// Convert returns src's JSON decoded into a new T.
func Convert[T any, PT interface {
	*T
	json.Unmarshaler
}](src json.Marshaler) (*T, error) {
	data, err := src.MarshalJSON()
	if err != nil {
		return nil, err
	}
	out := PT(new(T))
	if err := out.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return (*T)(out), nil
}

// Answer returns the inputResponse under key if it is a valid R (the version's
// CreateMessageResult): nil and no error if there is none, an error if it is not an R or not
// valid.
func Answer[R interface {
	json.Marshaler
	Validate() error
}, V any](responses map[string]V, key string) (json.Marshaler, error) {
	response, ok := responses[key]
	if !ok || IsNil(response) {
		return nil, nil
	}
	answer, ok := any(response).(R)
	if !ok {
		return nil, fmt.Errorf(": a %T does not answer a sampling request", response)
	}
	if err := answer.Validate(); err != nil {
		return nil, err
	}
	return answer, nil
}

// IsNil reports whether v is nil or a nil pointer.
func IsNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// ToolsRun is the run of sampling.SampleTools for mrtr's Runner.ReplayNeutral: params are the
// helper's, opts its options with the client's capabilities, and the result is kept in *out.
func ToolsRun(params func() (*v1125.CreateMessageRequestParams, error), opts *sampling.RetryOptions, out **sampling.ToolCalls) func(context.Context, sampling.Sampler, *v1125.ClientCapabilities) error {
	return func(ctx context.Context, s sampling.Sampler, caps *v1125.ClientCapabilities) error {
		p, err := params()
		if err != nil {
			return err
		}
		var o sampling.RetryOptions
		if opts != nil {
			o = *opts
		}
		o.Capabilities = caps
		*out, err = sampling.SampleTools(ctx, s, p, &o)
		return err
	}
}

// StructuredRun is ToolsRun for sampling.SampleStructured.
func StructuredRun[T any](params func() (*v1125.CreateMessageRequestParams, error), opts *sampling.StructuredOptions, out **sampling.Structured[T]) func(context.Context, sampling.Sampler, *v1125.ClientCapabilities) error {
	return func(ctx context.Context, s sampling.Sampler, caps *v1125.ClientCapabilities) error {
		p, err := params()
		if err != nil {
			return err
		}
		var o sampling.StructuredOptions
		if opts != nil {
			o = *opts
		}
		o.Capabilities = caps
		*out, err = sampling.SampleStructured[T](ctx, s, p, &o)
		return err
	}
}
