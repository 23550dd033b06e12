package kernels

// Other libraries' spellings, with what ksql writes for them: a user of
// scikit-learn or kernlab writes rbf and gamma, where ksql's kernels take
// a width σ. The errors for an unknown kernel or argument add the line.
var (
	habitNames = map[string]string{
		"rbf":        "scikit-learn's rbf with gamma γ is gauss(sigma=1/√(2γ))",
		"rbfdot":     "kernlab's rbfdot(sigma=γ) is gauss(sigma=1/√(2γ))",
		"laplacian":  "scikit-learn's laplacian_kernel(gamma=γ) is laplace(sigma=1/γ)",
		"laplacedot": "kernlab's laplacedot(sigma=s) is matern(sigma=1/s, nu=0.5)",
		"polynomial": "scikit-learn's poly with degree d, gamma γ and coef0 c is γ^d*poly(degree=d, r=c/γ)",
		"polydot":    "kernlab's polydot(degree=d, scale=γ, offset=c) is γ^d*poly(degree=d, r=c/γ)",
		"vanilladot": "kernlab's vanilladot is linear",
		"tanhdot":    "kernlab's tanhdot(scale=γ, offset=c) is sigmoid(gamma=γ, r=c)",
	}
	habitArgs = map[[2]string]string{
		{"gauss", "gamma"}:           "scikit-learn's gamma γ is sigma=1/√(2γ)",
		{"gauss", "length_scale"}:    "scikit-learn's length_scale is sigma",
		{"matern", "length_scale"}:   "scikit-learn's length_scale is sigma",
		{"laplace", "gamma"}:         "scikit-learn's gamma γ is sigma=1/γ",
		{"poly", "gamma"}:            "scikit-learn's gamma γ and coef0 c are γ^d*poly(degree=d, r=c/γ)",
		{"poly", "coef0"}:            "scikit-learn's gamma γ and coef0 c are γ^d*poly(degree=d, r=c/γ)",
		{"sigmoid", "coef0"}:         "scikit-learn's coef0 is r",
		{"rq", "length_scale"}:       "scikit-learn's length_scale is sigma",
		{"periodic", "length_scale"}: "scikit-learn's length_scale is sigma",
		{"periodic", "periodicity"}:  "scikit-learn's periodicity is period",
	}
)

// habit is "; " and the line for another library's name (arg "": the
// kernel's own), or "" when there is none.
func habit(kernel, arg string) string {
	h := habitNames[kernel]
	if arg != "" {
		h = habitArgs[[2]string{kernel, arg}]
	}
	if h == "" {
		return ""
	}
	return "; " + h
}
