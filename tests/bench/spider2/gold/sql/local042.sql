SELECT AVG(COALESCE(score, 0)) AS avg_score FROM students WHERE grade = 9;
