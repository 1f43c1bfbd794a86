SELECT COUNT(*) FROM refunds;
