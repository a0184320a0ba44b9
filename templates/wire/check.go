package wire

// This file is not part of the runtime that the emitter copies into generated packages
// (templates.Runtime embeds the files it copies, which this one is not): it gives mcpgen's own
// tools the format checks of the generated validators, to check values outside a generated
// package.

// CheckFormat returns why s is not a valid value of the schema's format ("byte", "uri",
// "uri-template", "date-time"), or "" when it is valid or the format is one that the generated
// Validate methods do not check, as they do.
func CheckFormat(s, format string) string {
	switch format {
	case "byte":
		return checkBase64(s)
	case "uri":
		return checkURI(s)
	case "uri-template":
		return checkURITemplate(s)
	case "date-time":
		return checkDateTime(s)
	}
	return ""
}
