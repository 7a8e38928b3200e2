# The public names of cgtalg.quotients and their modules, read by lazy_loader.attach_stub at run
# time (each loaded on first use) and by type checkers. To add a public name: one import line here.
from .construct import misere_quotient
from .forms import FormQuotient, form_quotient
from .infinite import infinite_certificate
from .pretension import FiniteMonoid, Pretension, verify_pretension
from .result import MisereQuotient, Presentation

__all__ = [
    "misere_quotient", "FormQuotient", "form_quotient", "infinite_certificate", "FiniteMonoid",
    "Pretension", "verify_pretension", "MisereQuotient", "Presentation",
]
