# The ulp suite's rule runs (suites/ulp.c, "a rule's run"): inputs after a measured one that
# a rule of the fast path decides are counted, not evaluated.  Each test runs an exhaustive
# range on the fast path and on the MPFR path (which reports no rule, so every input is
# measured) and compares the results byte for byte (test_run_result sameref).  The ranges
# straddle each kind of rule's edge (binary32 gelu: the near-zero rule below 2^-41, SCALED;
# saturation above 7.54 and above 40, SCALED; the deep tail below -60, SAME), the powers of two inside a
# rule's range (a template must not be one), work items of 2^16 inputs, an approximation
# measured against the exact function too, and kernels whose outputs differ from the rule's
# there (measured in full).  Included from tests/CMakeLists.txt after run.cmake.

# runs_test(NAME RC ARGS): ARGS ('|' separated) with --reference fast and --reference mpfr
function(runs_test name rc args)
    run_test(runs_${name} ${rc} "${args}|--reference|fast"
        ARGS2 "${args}|--reference|mpfr" MODE sameref)
    set_tests_properties(suites_run_runs_${name} PROPERTIES LABELS "cli;sweep")
endfunction()

set(runs_libm "run|--adapter|libm|--suite|ulp|--exhaustive|--threads|2|--kernel")
set(runs_mut "run|--adapter|mutants|--suite|ulp|--exhaustive|--threads|2|--kernel")
# near-zero: 2^-41 inside [0x1.fffp-42, 0x1.001p-41], both signs (about 4100 inputs each)
runs_test(near0_pos 0 "${runs_libm}|erfc.f32|--range|0x1.fffp-42:0x1.001p-41")
runs_test(near0_neg 0 "${runs_libm}|erfc.f32|--range|-0x1.001p-41:-0x1.fffp-42")
# saturation from 40 on, two work items and the power of two 64 with its neighbours
runs_test(saturation 0 "${runs_libm}|erfc.f32|--range|39.99:40.3")
# where binary32's saturation rule starts, sqrt(2 (p + 17) ln2) = 7.5391 (fast_fn.c)
runs_test(saturation_start 0 "${runs_libm}|erfc.f32|--range|7.538:7.5402")
runs_test(saturation_pow2 0 "${runs_libm}|erfc.f32|--range|63.99:64.01")
# the deep tail from -60 down (outputs -0 throughout), and around -64
runs_test(tail 0 "${runs_libm}|erfc.f32|--range|-60.3:-59.99")
runs_test(tail_pow2 0 "${runs_libm}|erfc.f32|--range|-64.01:-63.99")
# gelu_tanh against itself and against the exact gelu (vs_exact): each has its own rules
runs_test(tanh_exact_near0 0 "${runs_libm}|tanh.f32|--range|0x1.ffp-42:0x1.01p-41")
runs_test(tanh_exact_saturation 0 "${runs_libm}|tanh.f32|--range|39.99:40.01")
runs_test(tanh_exact_tail 0 "${runs_libm}|tanh.f32|--range|-60.01:-59.99")
# the fused pass of an approximation measured against the exact function where no rule runs:
# its errors against the exact function grow along the tail (each block's last input is
# accounted first, suites/ulp.c fused_block), and the enclosures come four at a time
runs_test(tanh_exact_fused 1 "${runs_libm}|tanh.f32|--range|-3:-2.996")
runs_test(sigmoid_exact_fused 1 "${runs_libm}|sigmoid.f32|--range|-6:-5.99")
runs_test(tanh_grad_exact_fused 1 "${runs_libm}|tanh_grad.f32|--range|-2:-1.997")
# the tanh form's zeros where the exact function is a normal number (its tail flushed from
# about -5.2): the span lane takes them against the exact function, their relative error 1
# tied with the maximum (suites/ulp_lane.h), across a binade of inputs (-8, where a work item
# starts: its first block's maxima are its last input's alone) and of results (-8.04 for
# gelu and gelu_grad)
runs_test(tanh_exact_zeros 1 "${runs_libm}|tanh.f32|--range|-8.05:-7.99")
runs_test(tanh_grad_exact_zeros 1 "${runs_libm}|tanh_grad.f32|--range|-8.05:-7.99")
# the kernel's own errors growing along each block (the sigmoid form near 2^-20): the quick
# lane's largest errors accounted in full and the lane run again (suites/ulp.c block_lanes)
runs_test(sigmoid_own_growth 0 "${runs_libm}|sigmoid.f32|--range|0x1p-20:0x1.004p-20")
# near 0, where a run's RN(f(x)) is one (an output's value holds for many inputs): the span
# lane takes correctly rounded and faithful outputs too, against the exact function and, where
# the kernel's own function is monotone, against that one, judged by the policy (suites/ulp.c
# fused_block; ulp_lane.h); each block's last input accounted first; the relative error's own
# ties (one V for thousands of inputs below 2^-26) taken by the quick lane; grad_no_xphi's
# errors (x phi(x), 4 ulps near 0x1.435p-21) crossing the policy's max_ulp, the lane taking only
# what passes (gelu_grad: no exact function, the own span lane alone)
runs_test(span_own_tanh_grad 0 "${runs_libm}|tanh_grad.f32|--range|0x1p-12:0x1.01p-12")
runs_test(span_own_tanh_grad_neg 0 "${runs_libm}|tanh_grad.f32|--range|-0x1.01p-9:-0x1p-9")
runs_test(span_own_grad 0 "${runs_libm}|grad_erfc.f32|--range|-0x1.01p-9:-0x1p-9")
runs_test(ties_rel_tanh_grad 0 "${runs_libm}|tanh_grad.f32|--range|0x1p-32:0x1.01p-32")
runs_test(span_own_grad_fail 1 "${runs_mut}|grad_no_xphi.f32|--range|0x1.40p-21:0x1.44p-21")
# results below the normal binary32 numbers decided by the fused pass (V known there too,
# suites/ulp_fused.h gs_fused_quick_sub, and the quick lane's case of them): normpdf's
# subnormal results and the edge 2^-126 (x = -13.19); the tanh form's zeros for a subnormal
# result (ftz) and, against the exact gelu, for one below 2^-150 (correctly rounded);
# tanh_grad's +0 for a negative result that rounds to -0 (signed_zero); the sigmoid form's
# normal outputs against the exact gelu's subnormal results
runs_test(sub_normpdf 0 "${runs_libm}|normpdf.f32|--range|-14:-13.99")
runs_test(sub_normpdf_edge 0 "${runs_libm}|normpdf.f32|--range|-13.2:-13.18")
runs_test(sub_tanh_ftz 1 "${runs_libm}|tanh.f32|--range|-10.5:-10.49")
runs_test(sub_tanh_exact 0 "${runs_libm}|tanh.f32|--range|-13.5:-13.49")
runs_test(sub_tanh_grad_signed_zero 1 "${runs_libm}|tanh_grad.f32|--range|-12:-11.99")
runs_test(sub_sigmoid_exact 1 "${runs_libm}|sigmoid.f32|--range|-13.5:-13.49")
# near 0, where an approximation's correctly rounded outputs x/2 have relative errors growing
# with |x| and ulp errors equal over many inputs (ties with the maximum, settled by x, that the
# quick lane takes)
runs_test(ties_sigmoid_near0 0 "${runs_libm}|sigmoid.f32|--range|-0x1.02p-30:-0x1p-30")
runs_test(ties_tanh_near0 0 "${runs_libm}|tanh.f32|--range|0x1p-25:0x1.02p-25")
# rules of other functions: normcdf's cell next to 1 from 40 on and next to 1/2 near 0 (SAME),
# erfc's cell next to 2 below -42.7 (SAME) and its tail above 42.7 (TINY)
runs_test(normcdf_one 0 "${runs_libm}|normcdf.f32|--range|39.99:40.3")
runs_test(normcdf_half 0 "${runs_libm}|normcdf.f32|--range|0x1.fffp-42:0x1.001p-41")
runs_test(erfc_two 0 "${runs_libm}|erfc_c99.f32|--range|-42.9:-42.69")
runs_test(erfc_tail 0 "${runs_libm}|erfc_c99.f32|--range|42.69:42.9")
# saturation below 40 from sqrt((p + 17) ln2) = 5.331 (erf, erfc) and sqrt(2 (p + 17) ln2)
# = 7.539 (normcdf), SAME; phi's flat top below 2^-32, SAME (about 4000 inputs each)
runs_test(erf_saturation_start 0 "${runs_libm}|erf_c99.f32|--range|5.33:5.332")
runs_test(erf_saturation_start_neg 0 "${runs_libm}|erf_c99.f32|--range|-5.332:-5.33")
runs_test(erfc_two_start 0 "${runs_libm}|erfc_c99.f32|--range|-5.332:-5.33")
runs_test(normcdf_one_start 0 "${runs_libm}|normcdf.f32|--range|7.538:7.5402")
# gelu_tanh_grad's saturation below 30 from 7.3262 (fast_fn.c tanh_grad_sat_x) and
# gelu_grad's below 40 from 8.3485 (gelu_grad_sat_x), SAME: tanh_grad.f32 against both
runs_test(tanh_grad_saturation_start 0 "${runs_libm}|tanh_grad.f32|--range|7.325:7.328")
runs_test(grad_saturation_start 0 "${runs_libm}|tanh_grad.f32|--range|8.347:8.35")
runs_test(grad_erfc_saturation_start 0 "${runs_libm}|grad_erfc.f32|--range|8.347:8.35")
# gelu_grad's TINY rule from -42.17 (binary32's negligible bound 2^-1225, fast_fn.c
# gelu_grad_tiny_z) down to -60, SAME: tanh_grad.f32's and grad_erfc.f32's +0 against -0
# (signed_zero)
runs_test(grad_tiny_start 1 "${runs_libm}|tanh_grad.f32|--range|-42.18:-42.17")
runs_test(grad_erfc_tiny_start 1 "${runs_libm}|grad_erfc.f32|--range|-42.18:-42.17")
# the TINY rules from binary32's negligible bound 2^-1225 (fast_fn.c gauss_tiny_z: 41.187 for
# gelu, normcdf and normpdf; erfc_tiny_z: 29.139; tiny_rule_z: 22.532 for gelu_tanh, 502.57
# for gelu_sigmoid, 22.581 for gelu_tanh_grad), each across its start
runs_test(gelu_tiny_start 0 "${runs_libm}|erfc.f32|--range|-41.19:-41.18")
runs_test(normcdf_tiny_start 0 "${runs_libm}|normcdf.f32|--range|-41.19:-41.18")
runs_test(normpdf_tiny_start 0 "${runs_libm}|normpdf.f32|--range|41.18:41.19")
runs_test(normpdf_tiny_start_neg 0 "${runs_libm}|normpdf.f32|--range|-41.19:-41.18")
runs_test(erfc_tiny_start 0 "${runs_libm}|erfc_c99.f32|--range|29.135:29.145")
runs_test(tanh_tiny_start 0 "${runs_libm}|tanh.f32|--range|-22.54:-22.525")
runs_test(sigmoid_tiny_start 0 "${runs_libm}|sigmoid.f32|--range|-502.6:-502.55")
runs_test(tanh_grad_tiny_start 1 "${runs_libm}|tanh_grad.f32|--range|-22.59:-22.575")
# the approximations' saturation (fast_fn.c approx_sat_x: 6.3515 for gelu_tanh, 16.698 for
# gelu_sigmoid, binary32), SCALED
runs_test(tanh_saturation_start 0 "${runs_libm}|tanh.f32|--range|6.35:6.353")
runs_test(sigmoid_saturation_start 0 "${runs_libm}|sigmoid.f32|--range|16.69:16.71")
# ulp.c own_rule: an approximation's own TINY rule where its exact function has none (no run
# of both): tanh_grad.f32 over [-42.17, -22.58] (+0 for -0: the template fails, a finding at
# each x), tanh.f32 over [-41.19, -22.53], and tanh_overshoot.f32's outputs there, which
# differ input by input (wrong_sign: none but the template counted as it)
runs_test(own_rule_tanh_grad 1 "${runs_libm}|tanh_grad.f32|--range|-25:-24.99")
runs_test(own_rule_tanh 0 "${runs_libm}|tanh.f32|--range|-35:-34.99")
runs_test(own_rule_overshoot 1 "${runs_mut}|tanh_overshoot.f32|--range|-25:-24.99")
# ulp.c ex_rule: the exact function's TINY rule where the kernel's own function has none:
# gelu's below -41.19 against sigmoid.f32's outputs (gelu_sigmoid's own rule starts at
# -502.6), which differ input by input there, and across gelu's start
runs_test(ex_rule_sigmoid 1 "${runs_libm}|sigmoid.f32|--range|-45:-44.99")
runs_test(ex_rule_sigmoid_start 1 "${runs_libm}|sigmoid.f32|--range|-41.19:-41.18")
# and a kernel whose outputs there grow with |x| (tests/adapters/fixtures/grow.c, x 2^-133),
# so that its errors against gelu grow along the sweep: an output counted as the template's
# that is not the template's would hide the maximum
gcfx_module(gcfx_grow grow grow.c)
set(runs_grow "run|--adapter|$<TARGET_FILE:gcfx_grow>|--suite|ulp|--exhaustive|--threads|2")
runs_test(ex_rule_grow 1 "${runs_grow}|--kernel|sigmoid_grow.f32|--range|-45:-44.99")
# gs_fused_quick_tiny (ulp_fused.h): zero outputs where f(x) lies in [2^-1224, 2^-700):
# tanh_grad.f32's +0 (signed_zero) over [-22.2, -19.3], erfc.f32's -0 for gelu near -39
runs_test(quick_tiny_tanh_grad 1 "${runs_libm}|tanh_grad.f32|--range|-21:-20.99")
runs_test(quick_tiny_gelu 0 "${runs_libm}|erfc.f32|--range|-39.01:-39")
runs_test(normpdf_flat 0 "${runs_libm}|normpdf.f32|--range|0x1.fffp-33:0x1.001p-32")
runs_test(normpdf_flat_neg 0 "${runs_libm}|normpdf.f32|--range|-0x1.001p-32:-0x1.fffp-33")
# ulp.c's flat runs: near 0, inputs with one output and one V (f(x) rounded to odd at 40 bits)
# counted after the first, the pieces found by bisection on V; the kernel's own function and
# the exact one each.  V one over whole blocks (2^-35: about 2^17 inputs a V), changing every
# few hundred inputs (2^-25, 2^-27), every hundred or so for phi's flat top (2^-12); gelu_grad
# alone (no exact function), normcdf (1/2 + 0.4 x), erfc (decreasing: 1 - 1.13 x); across a
# binade (a work item's end); and a policy that fails the 1/2 of tanh_grad.f32 by one ulp
# (a failed template, a finding at each x)
runs_test(flat_deep 0 "${runs_libm}|tanh_grad.f32|--range|-0x1.04p-35:-0x1p-35")
runs_test(flat_changing 0 "${runs_libm}|tanh_grad.f32|--range|0x1p-25:0x1.04p-25")
runs_test(flat_changing_neg 0 "${runs_libm}|tanh_grad.f32|--range|-0x1.04p-27:-0x1p-27")
runs_test(flat_binade 0 "${runs_libm}|tanh_grad.f32|--range|-0x1.01p-30:-0x1.fep-31")
runs_test(flat_grad 0 "${runs_libm}|grad_erfc.f32|--range|0x1p-28:0x1.04p-28")
runs_test(flat_normcdf 0 "${runs_libm}|normcdf.f32|--range|-0x1.04p-31:-0x1p-31")
runs_test(flat_erfc 0 "${runs_libm}|erfc_c99.f32|--range|0x1p-29:0x1.04p-29")
runs_test(flat_normpdf 0 "${runs_libm}|normpdf.f32|--range|0x1p-12:0x1.04p-12")
set(flat_tight ${CMAKE_CURRENT_SOURCE_DIR}/suites/policies/flat_tight.ini)
runs_test(flat_failed 1
    "${runs_libm}|tanh_grad.f32|--range|0x1.6p-25:0x1.64p-25|--policy|${flat_tight}")
# blocks across a region's edge inside a binade (-10 in [-16, -8], -5 in [-8, -4]): the fused
# pass takes a block's region from its least and greatest inputs (suites/ulp.c fused_block),
# its lanes only where both lie in one region; the kernel's own function and the exact one
runs_test(region_edge_m10 1 "${runs_libm}|sigmoid.f32|--range|-10.0002:-9.9998")
runs_test(region_edge_m5 1 "${runs_libm}|tanh_grad.f32|--range|-5.0002:-4.9998")
# kernels that leave the rule's output: +0 for -0 in the tail (a SAME rule), inf from 2^127
# on (SCALED), subnormal results flushed near 0 (x/2 subnormal: no template there)
runs_test(pos_zero 1 "${runs_mut}|pos_zero.f32|--range|-60.01:-59.99")
runs_test(overflow 1 "${runs_mut}|overflow2x.f32|--range|0x1.fffp126:0x1.ffffffp127")
runs_test(ftz 1 "${runs_mut}|ftz_result.f32|--range|0x1.ffp-126:0x1.01p-125")
# a failed template under a SAME rule: libm's tanh_grad.f32 returns NaN from |x| = 2^64 on
# (about 2000 inputs each side of it; the worst lists fill from the run, then it only counts)
runs_test(nan_run 1 "${runs_libm}|tanh_grad.f32|--range|0x1.fffp63:0x1.001p64")
runs_test(nan_run_neg 1 "${runs_libm}|tanh_grad.f32|--range|-0x1.001p64:-0x1.fffp63")
# every binary16 and bfloat16 input (exhaustive by default), and a stratified binary32 sample
# large enough (about 590 inputs per binade, in random order) for runs after a block of 128
runs_test(f16 1 "run|--adapter|libm|--suite|ulp|--threads|2|--kernel|erfc.f16|--kernel|tanh.bf16")
runs_test(f32_stratified 1 "run|--adapter|libm|--suite|ulp|--threads|2|--kernel|erfc.f32|--samples|300000")
