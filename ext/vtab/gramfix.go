package vtab

import "fmt"

// gramFix is what an error past max_gram_bytes suggests for a need of
// need bytes: raising the setting, or alt (the module's other ways; ""
// for none), where ksql_config can set it that high; past the setting's
// largest value (its bound, or this machine's memory), that the need is
// beyond what ksql allows, and alt.
func gramFix(need int64, alt string) string {
	if need <= MaxGramBytes.Ceiling() {
		if alt == "" {
			return "raise it with SELECT ksql_config('max_gram_bytes', N)"
		}
		return "raise it with SELECT ksql_config('max_gram_bytes', N), or " + alt
	}
	s := gramBeyond()
	if alt != "" {
		s += "; " + alt
	}
	return s
}

// gramBeyond says that a need is past max_gram_bytes' largest value.
func gramBeyond() string {
	return fmt.Sprintf("that is beyond what ksql allows (the setting's largest value is %s)", MaxGramBytes.CeilingText())
}

// landmarksFix is gramFix for the memory of a Nyström fit, which fewer
// landmarks bring within bounds.
func landmarksFix(need int64) string {
	if need <= MaxGramBytes.Ceiling() {
		return "lower landmarks= or raise the setting with SELECT ksql_config('max_gram_bytes', N)"
	}
	return "lower landmarks= (" + gramBeyond() + ")"
}
