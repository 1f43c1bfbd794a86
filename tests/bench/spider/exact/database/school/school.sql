-- Teachers, students, courses and enrolments.
CREATE TABLE teacher (
  teacher_id INTEGER PRIMARY KEY,
  name TEXT,
  department TEXT,
  salary REAL,
  hire_year INTEGER
);
CREATE TABLE student (
  student_id INTEGER PRIMARY KEY,
  first_name TEXT,
  last_name TEXT,
  age INTEGER,
  major TEXT,
  advisor INTEGER,
  FOREIGN KEY (advisor) REFERENCES teacher(teacher_id)
);
CREATE TABLE course (
  course_id INTEGER PRIMARY KEY,
  title TEXT,
  credits INTEGER,
  teacher_id INTEGER,
  FOREIGN KEY (teacher_id) REFERENCES teacher(teacher_id)
);
CREATE TABLE enrollment (
  student_id INTEGER,
  course_id INTEGER,
  grade REAL,
  semester TEXT,
  PRIMARY KEY (student_id, course_id),
  FOREIGN KEY (student_id) REFERENCES student(student_id),
  FOREIGN KEY (course_id) REFERENCES course(course_id)
);
INSERT INTO teacher VALUES (1, 'Ada Park', 'Math', 72000, 2010);
INSERT INTO teacher VALUES (2, 'Ben Ito', 'Physics', 65000, 2015);
INSERT INTO teacher VALUES (3, 'Cara Diaz', 'History', 58000, 2018);
INSERT INTO student VALUES (1, 'Lin', 'Smith', 19, 'Math', 1);
INSERT INTO student VALUES (2, 'Omar', 'Lee', 21, 'Physics', 2);
INSERT INTO student VALUES (3, 'Pia', 'Nowak', 20, 'Math', 1);
INSERT INTO student VALUES (4, 'Raj', 'Smith', 23, 'History', 3);
INSERT INTO student VALUES (5, 'Sue', 'Kim', 18, 'Physics', NULL);
INSERT INTO course VALUES (10, 'Calculus', 4, 1);
INSERT INTO course VALUES (11, 'Mechanics', 3, 2);
INSERT INTO course VALUES (12, 'Rome', 2, 3);
INSERT INTO course VALUES (13, 'Algebra', 3, 1);
INSERT INTO enrollment VALUES (1, 10, 3.7, 'Fall');
INSERT INTO enrollment VALUES (1, 13, 3.9, 'Spring');
INSERT INTO enrollment VALUES (2, 11, 3.1, 'Fall');
INSERT INTO enrollment VALUES (3, 10, 2.8, 'Fall');
INSERT INTO enrollment VALUES (4, 12, 3.5, 'Spring');
INSERT INTO enrollment VALUES (5, 11, 2.2, 'Spring');
INSERT INTO enrollment VALUES (3, 13, 3.3, 'Spring');
