import { createFileRoute } from '@tanstack/react-router';
import { WritingStyleAnalysisPage } from '../../features/writingStyle/WritingStyleAnalysisPage';

// /writing-style-analysis (the product spec's screens): the page shows its own skeletons while the profile loads.
export const Route = createFileRoute('/_app/writing-style-analysis')({
  component: WritingStyleAnalysisPage,
});
