"""Human evidence: the finished deals people played at a site, as a public dataset
(:mod:`.dataset`, ``lald db export-games``), and the readings' figures measured on them
beside the bots' on the same deals (:mod:`.figures`, ``lald readings --records``)."""

from .dataset import DATASET, GameLine, SiteSeat, SiteTable, export_lines, read_lines
from .figures import Evidence, measure_lines

__all__ = ["DATASET", "Evidence", "GameLine", "SiteSeat", "SiteTable", "export_lines", "measure_lines",
           "read_lines"]
