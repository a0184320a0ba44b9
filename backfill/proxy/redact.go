package proxy

import (
	"net/url"
	"regexp"
)

// urlInText finds the URLs in a text (an error's, which quotes the URL it failed on).
var urlInText = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^\s"'<>]+`)

// RedactURLs returns s with every URL in it redacted: the password of its user info and the
// values of its query (a token in ?api_key=..., say) replaced, so that an error about a request
// to the remote server can be logged and sent to the client without its credentials.
func RedactURLs(s string) string {
	return urlInText.ReplaceAllStringFunc(s, func(raw string) string {
		u, err := url.Parse(raw)
		if err != nil {
			return "(a URL)"
		}
		if u.RawQuery != "" {
			q := u.Query()
			for _, vs := range q {
				for i := range vs {
					vs[i] = "REDACTED"
				}
			}
			u.RawQuery = q.Encode()
		}
		return u.Redacted()
	})
}

// redactedErr is err's text with its URLs redacted (see RedactURLs), or nil for a nil err.
func redactedErr(err error) any {
	if err == nil {
		return nil
	}
	return RedactURLs(err.Error())
}
