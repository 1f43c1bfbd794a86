SELECT '26' AS qty_total;
