# bash completion for gelucheck(1), installed as share/bash-completion/completions/gelucheck
_gelucheck()
{
    local cur prev cmd i
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
        -*) ;;
        *) cmd=${COMP_WORDS[i]}; break ;;
        esac
    done
    if [[ -z $cmd ]]; then
        COMPREPLY=($(compgen -W "ref list run report compare merge baseline help --help --version" -- "$cur"))
        return
    fi
    case $prev in
    --dtype|-d) COMPREPLY=($(compgen -W "f64 f32 f16 bf16" -- "$cur")); return ;;
    --rounding|-r) COMPREPLY=($(compgen -W "rn rz ru rd" -- "$cur")); return ;;
    --policy) COMPREPLY=($(compgen -W "strict faithful default lenient" -- "$cur")
                         $(compgen -f -X '!*.ini' -- "$cur")); return ;;
    --suite) COMPREPLY=($(compgen -W "all ulp special identity tail vector fingerprint" -- "$cur")); return ;;
    --func) COMPREPLY=($(compgen -W "gelu gelu_tanh gelu_sigmoid gelu_grad gelu_tanh_grad normcdf normpdf erf erfc" -- "$cur")); return ;;
    --runtime) COMPREPLY=($(compgen -W "onnxruntime onnxruntime-web" -- "$cur")); return ;;
    --torch-module) COMPREPLY=($(compgen -f -X '!*.pt' -- "$cur")); return ;;
    --isolation) COMPREPLY=($(compgen -W "process none" -- "$cur")); return ;;
    --progress) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    --reference) COMPREPLY=($(compgen -W "fast mpfr" -- "$cur")); return ;;
    --adapter) COMPREPLY=($(compgen -W "libm mutants sleef onednn onnxruntime onnxruntime-web torch musl ggml tfjs gsl boost scipy plugin: exec: onnx: scan: torch-module:" -- "$cur")
                          $(compgen -f -X '!*.so' -- "$cur")); return ;;
    --json|--junit|--baseline|--site-map|--resume|-o|--output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --report) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    local opts
    case $cmd in
    ref) opts="--dtype --rounding --scale --prec-cap --help"
         [[ $cur != -* ]] && opts="gelu gelu_tanh gelu_sigmoid gelu_grad gelu_tanh_grad normcdf normpdf erf erfc gelu_grad2 gelu_scaled" ;;
    list) opts="--adapter --adapter-options --func --isolation --json --help" ;;
    run) opts="--adapter --adapter-name --adapter-options --kernel --dtype --func --runtime
               --torch-module --suite --policy
               --exhaustive --samples --seed --range --threads --json --report --junit --baseline
               --site-map --baseline-tolerance --baseline-allow-missing --timeout --startup-timeout
               --isolation --memory-limit --progress --shard --reference --resume --help" ;;
    report) opts="--report --junit --help" ;;
    compare) opts="--report --site-map --help" ;;
    merge) opts="--json --report --junit --baseline --site-map --help" ;;
    baseline) opts="--output --help" ;;
    help) opts="ref list run report compare merge baseline" ;;
    esac
    if [[ $cur == -* || $cmd == ref || $cmd == help ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _gelucheck gelucheck
