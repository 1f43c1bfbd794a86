SELECT ' Paris' AS city;
