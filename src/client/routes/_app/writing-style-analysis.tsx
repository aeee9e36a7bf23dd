import { createFileRoute } from '@tanstack/react-router';
import { WritingStyleAnalysisPage } from '../../features/writingStyle/WritingStyleAnalysisPage';

// /writing-style-analysis (SPEC section 2): the page shows its own skeletons while the profile loads.
export const Route = createFileRoute('/_app/writing-style-analysis')({
  component: WritingStyleAnalysisPage,
});
