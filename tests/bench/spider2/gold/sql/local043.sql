SELECT name, score FROM students ORDER BY id;
