"""Drop-in replacements for the comparison functions of the evaluators text-to-SQL teams use:
the same names, signatures and verdicts, so a script changes one import.

- :mod:`qeval.compat.spider`: ``result_eq`` of Spider's test-suite evaluation.
- :mod:`qeval.compat.bird`: ``calculate_ex`` and ``calculate_f1_score`` of BIRD's evaluation.
- :mod:`qeval.compat.defog`: ``compare_df`` and ``subset_df`` of defog's sql-eval, on pandas
  DataFrames.
"""
