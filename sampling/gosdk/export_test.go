package gosdk

// Compare is compare, for the tests of package gosdk_test: the first difference between two JSON
// documents as a *LossError, a message's single content block and an array of it counting as one.
var Compare = compare

// DecodeSDKParams is decodeSDKParams, for the tests of package gosdk_test.
var DecodeSDKParams = decodeSDKParams

// SDKParams is sdkParams, for the tests of package gosdk_test.
var SDKParams = sdkParams
