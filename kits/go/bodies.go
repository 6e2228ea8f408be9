package smsemu

import (
	"fmt"
	"net/url"
	"strconv"
	"time"
)

// How the generated inputs (inputs.go) travel: a body is a map that leaves out what was not given, a query leaves out
// empty values, and a duration or an instant is taken as a Go value as well as the control API's own text.

// durationValue is a duration as the control API takes it: a time.Duration becomes milliseconds (rounded up, so a
// wait never ends early), a text ("15m", "1h30m", "500ms") goes as written; nil is "not given".
func durationValue(value any) (any, error) {
	switch v := value.(type) {
	case nil:
		return nil, nil
	case time.Duration:
		return int64((v + time.Millisecond - 1) / time.Millisecond), nil
	case string:
		return v, nil
	default:
		return nil, fmt.Errorf("%sa duration is a time.Duration or a text such as \"15m\", not %T", ErrorPrefix, value)
	}
}

// instantValue is an instant as the control API takes it: a time.Time in RFC 3339 (UTC), a text as written.
func instantValue(value any) (any, error) {
	switch v := value.(type) {
	case nil:
		return nil, nil
	case time.Time:
		if v.IsZero() {
			return nil, nil
		}
		return v.UTC().Format(time.RFC3339Nano), nil
	case string:
		return v, nil
	default:
		return nil, fmt.Errorf("%san instant is a time.Time or an RFC 3339 text, not %T", ErrorPrefix, value)
	}
}

// fields is a JSON body under construction: set leaves out zero values, so "not given" never travels as 0 or "".
type fields map[string]any

func (f fields) set(name string, value any) {
	switch v := value.(type) {
	case nil:
		return
	case string:
		if v == "" {
			return
		}
	case int:
		if v == 0 {
			return
		}
	case float64:
		if v == 0 {
			return
		}
	case *int:
		if v == nil {
			return
		}
		value = *v
	case *float64:
		if v == nil {
			return
		}
		value = *v
	case *string:
		if v == nil {
			return
		}
		if *v == "" {
			value = nil // the contract's null (a nullable text's "" is never valid)
		} else {
			value = *v
		}
	case bool:
		if !v {
			return
		}
	case []string:
		if v == nil {
			return
		}
	}
	f[name] = value
}

func (f fields) duration(name string, value any) error {
	converted, err := durationValue(value)
	f.set(name, converted)
	return err
}

func (f fields) instant(name string, value any) error {
	converted, err := instantValue(value)
	f.set(name, converted)
	return err
}

// fieldsOf is a body of one field, left out when empty.
func fieldsOf(name, value string) fields {
	f := fields{}
	f.set(name, value)
	return f
}

// PageQuery asks for one page of a list (0: the emulator's default).
type PageQuery struct {
	Page  int
	Limit int
}

func (p PageQuery) values() url.Values {
	values := url.Values{}
	p.addTo(values)
	return values
}

func (p PageQuery) addTo(values url.Values) {
	if p.Page > 0 {
		values.Set("page", strconv.Itoa(p.Page))
	}
	if p.Limit > 0 {
		values.Set("limit", strconv.Itoa(p.Limit))
	}
}

func addQuery(values url.Values, name, value string) {
	if value != "" {
		values.Set(name, value)
	}
}

func addInstant(values url.Values, name string, value any) error {
	converted, err := instantValue(value)
	if text, ok := converted.(string); ok {
		addQuery(values, name, text)
	}
	return err
}

// queryOf is a query of one value, left out when empty.
func queryOf(name, value string) url.Values {
	values := url.Values{}
	addQuery(values, name, value)
	return values
}
