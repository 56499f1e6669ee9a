import { withContext } from '#server/lib/context';
import { achievement, deleteAchievement, listAchievements, saveAchievement } from './achievements.ts';
import type { AdminContentContext } from './context.ts';
import { course, createCourse, deleteCourse, listCourses, updateCourse } from './courses.ts';
import { setPaths, setQuiz } from './lesson-material.ts';
import { createLesson, deleteLesson, lesson, moveLesson, updateLesson } from './lessons.ts';
import { createStage, deleteStage, listStages, stage, updateStage } from './stages.ts';

/**
 * The console's content pages, one file per thing edited: courses (courses.ts), lessons
 * (lessons.ts) with their notation paths and quiz (lesson-material.ts), stages (stages.ts),
 * achievements (achievements.ts). Every change is written with its audit entry in one transaction.
 */
export function createAdminContentService({ db }: AdminContentContext) {
  const ctx: AdminContentContext = { db };
  const on = withContext(ctx);
  return {
    listCourses: on(listCourses),
    course: (id: number) => course(ctx, id),
    createCourse: on(createCourse),
    updateCourse: on(updateCourse),
    deleteCourse: on(deleteCourse),

    lesson: (id: number) => lesson(ctx, id),
    createLesson: on(createLesson),
    updateLesson: on(updateLesson),
    moveLesson: on(moveLesson),
    deleteLesson: on(deleteLesson),
    setPaths: on(setPaths),
    setQuiz: on(setQuiz),

    listStages: on(listStages),
    stage: on(stage),
    createStage: on(createStage),
    updateStage: on(updateStage),
    deleteStage: on(deleteStage),

    listAchievements: on(listAchievements),
    achievement: on(achievement),
    saveAchievement: on(saveAchievement),
    deleteAchievement: on(deleteAchievement),
  };
}
export type AdminContentService = ReturnType<typeof createAdminContentService>;
