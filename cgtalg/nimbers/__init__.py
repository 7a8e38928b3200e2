"""cgtalg.nimbers."""

# Finite nimbers (cgtalg.nimbers.finite); array kernels live in cgtalg.nimbers.kernels.
from cgtalg.nimbers.finite import (  # noqa: E402
    QuadraticRoots,
    fermat_field,
    field_degree,
    nim_add,
    nim_div,
    nim_inv,
    nim_mul,
    nim_pow,
    nim_solve_quadratic,
    nim_sqrt,
    nim_square,
    nim_trace,
)

# Ordinal nimbers below ω^(ω^ω) (cgtalg.nimbers.ordinal, .lenstra, .alpha_table) and transfinite
# Nim (cgtalg.nimbers.transfinite_nim). The ordinal versions of the arithmetic accept ints as
# well; they are re-exported with an ``ordinal_`` prefix so as not to shadow the finite ones.
from cgtalg.nimbers.alpha_table import alpha, alpha_provenance, alpha_table  # noqa: E402
from cgtalg.nimbers.lenstra import (  # noqa: E402
    NimRoots,
    kappa,
    nim_degree,
    nim_root,
    nim_roots,
    parse_nim_polynomial,
)
from cgtalg.nimbers.lenstra import nim_div as ordinal_nim_div  # noqa: E402
from cgtalg.nimbers.lenstra import nim_inv as ordinal_nim_inv  # noqa: E402
from cgtalg.nimbers.lenstra import nim_mul as ordinal_nim_mul  # noqa: E402
from cgtalg.nimbers.lenstra import nim_pow as ordinal_nim_pow  # noqa: E402
from cgtalg.nimbers.lenstra import nim_product as ordinal_nim_product  # noqa: E402
from cgtalg.nimbers.lenstra import nim_sqrt as ordinal_nim_sqrt  # noqa: E402
from cgtalg.nimbers.ordinal import OrdinalLike, as_ordinal, format_ordinal, ordinal  # noqa: E402
from cgtalg.nimbers.ordinal import nim_add as ordinal_nim_add  # noqa: E402
from cgtalg.nimbers.ordinal import nim_sum as ordinal_nim_sum  # noqa: E402
from cgtalg.nimbers.transfinite_nim import (  # noqa: E402
    format_moves,
    nim_outcome,
    nim_winning_moves,
)
